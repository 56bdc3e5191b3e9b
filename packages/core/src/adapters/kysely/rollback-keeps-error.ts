import type { DatabaseConnection, Driver, TransactionSettings } from 'kysely';

/**
 * A Kysely driver whose failed ROLLBACK never replaces the error that caused it. Kysely rolls a
 * transaction back when its work or its COMMIT throws, and a throwing rollback takes that error's
 * place: on a full disk SQLite has already rolled the transaction back itself, so the driver's
 * ROLLBACK says "cannot rollback - no transaction is active" (SQLITE_ERROR, a 500) instead of
 * SQLITE_FULL (a 503 with Retry-After); on PostgreSQL a connection cut mid-transaction answers the
 * ROLLBACK with "Client has encountered a connection error". Here the rollback's own failure is
 * dropped, so the first error is the one thrown and storage unavailability stays 503 on both
 * adapters. Dropping it is safe: a transaction whose ROLLBACK fails is over anyway (SQLite ended
 * it, or the connection is dead, and pg-pool discards a connection that is not queryable when it
 * is released).
 */
export class RollbackKeepsErrorDriver implements Driver {
  readonly savepoint?: Driver['savepoint'];
  readonly rollbackToSavepoint?: Driver['rollbackToSavepoint'];
  readonly releaseSavepoint?: Driver['releaseSavepoint'];

  constructor(
    private readonly inner: Driver,
    private readonly onRollbackError: (error: unknown) => void = () => {},
  ) {
    // Kysely asks whether a driver has savepoints: this one has them where the inner one does.
    if (inner.savepoint) this.savepoint = inner.savepoint.bind(inner);
    if (inner.rollbackToSavepoint) this.rollbackToSavepoint = inner.rollbackToSavepoint.bind(inner);
    if (inner.releaseSavepoint) this.releaseSavepoint = inner.releaseSavepoint.bind(inner);
  }

  init(): Promise<void> {
    return this.inner.init();
  }

  acquireConnection(): Promise<DatabaseConnection> {
    return this.inner.acquireConnection();
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await this.inner.rollbackTransaction(connection);
    } catch (error) {
      this.onRollbackError(error);
    }
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(connection);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}
