import { nasSchema } from '../domain/nas.js';
import { poolSchema } from '../domain/pool.js';
import { corsRuleSchema } from '../domain/cors-rule.js';
import { collectionSchema } from './collection-schema.js';

// The share and trap collections sit beside their items in domain/; users and API keys in their contract files.
export const nasCollectionSchema = collectionSchema('nas', nasSchema).meta({ id: 'nas_collection' });
export const poolCollectionSchema = collectionSchema('pools', poolSchema).meta({ id: 'pool_collection' });
export const corsRuleCollectionSchema = collectionSchema('cors_rules', corsRuleSchema).meta({ id: 'cors_rule_collection' });
