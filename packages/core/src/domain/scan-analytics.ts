import { z } from 'zod';

/** Buckets of a file's age (the scan's clock minus the file's time); a year is 365 days. */
export const ageBuckets = ['< 30 d', '30-90 d', '90 d-1 y', '1-3 y', '> 3 y'] as const;
export type AgeBucket = (typeof ageBuckets)[number];

/** Buckets of a file's size. */
export const sizeBuckets = ['< 4 KiB', '< 1 MiB', '< 100 MiB', '< 1 GiB', '>= 1 GiB'] as const;
export type SizeBucket = (typeof sizeBuckets)[number];

/** How many directories each ranking of `top_directories` keeps, and how deep below the root. */
export const topDirectoryLimit = 100;
export const topDirectoryMaxDepth = 3;
export const extensionLimit = 50;
export const largestFileLimit = 20;
/** A path's longest JSON form (UTF-8 bytes) in an answer; longer ones are cut in the middle (see answerPath). */
export const maxAnswerPathBytes = 600;
/** Longest extension (UTF-16 units) counted as one; a longer "extension" means the name has none. */
export const maxExtensionLength = 16;

const count = z.number().int().nonnegative();
const sharePath = z.string().describe("share-relative, '/'-separated, starting with '/'; a path longer than 600 bytes keeps its two ends around '…(hash)…'");

export const topDirectorySchema = z
  .object({
    path: sharePath,
    bytes: count.describe("bytes of the regular files of the directory's whole subtree"),
    files: count.describe("regular files of the directory's whole subtree"),
  })
  .meta({ id: 'scan_top_directory' });

const histogramRow = <T extends readonly [string, ...string[]]>(buckets: T) => z.object({ bucket: z.enum(buckets), files: count, bytes: count });

export const ageHistogramSchema = z.array(histogramRow(ageBuckets)).meta({ id: 'scan_age_histogram' });
export const sizeHistogramSchema = z.array(histogramRow(sizeBuckets)).meta({ id: 'scan_size_histogram' });

export const extensionRowSchema = z
  .object({
    extension: z.string().describe("lower-cased text after the name's last '.', at most 16 characters; '' for names without one"),
    files: count,
    bytes: count,
  })
  .meta({ id: 'scan_extension' });

export const largestFileSchema = z
  .object({
    path: sharePath,
    bytes: count,
    modified_at: z.string().nullable().describe('last modification, ISO 8601 UTC; null when the file system told no valid time'),
  })
  .meta({ id: 'scan_largest_file' });

export const scanAnalyticsSchema = z
  .object({
    top_directories: z
      .array(topDirectorySchema)
      .describe(
        'directories 1 to 3 levels below the share root (the root itself is the scan’s totals): the 100 largest by bytes and the 100 with most files, together, largest first',
      ),
    top_directories_complete: z.boolean().describe('true when every directory 1 to 3 levels deep is listed (a directory absent from the list holds nothing)'),
    age_histogram: ageHistogramSchema.describe('files and bytes by last modification'),
    access_histogram: ageHistogramSchema
      .nullable()
      .describe('files and bytes by last access; null when the protocol gave no access times or every one equals the modification time (noatime)'),
    size_histogram: sizeHistogramSchema,
    extensions: z.array(extensionRowSchema).describe('the 50 extensions holding most bytes'),
    extensions_other: z.object({ files: count, bytes: count }).describe('every other extension, summed'),
    largest_files: z.array(largestFileSchema).describe('the 20 largest files'),
  })
  .meta({ id: 'scan_analytics' });
export type ScanAnalytics = z.output<typeof scanAnalyticsSchema>;
export type TopDirectory = z.output<typeof topDirectorySchema>;
export type HistogramRow<B extends string> = { bucket: B; files: number; bytes: number };

/** How many directories `top_growers` lists that grew, and as many that shrank. */
export const topGrowerLimit = 20;

export const topGrowerSchema = z
  .object({
    path: sharePath,
    bytes_delta: z.number().int().describe("the subtree's bytes in `to` minus in `from`"),
    files_delta: z.number().int(),
  })
  .meta({ id: 'scan_top_grower' });
export type TopGrower = z.output<typeof topGrowerSchema>;

const sideBySide = <T extends readonly [string, ...string[]]>(buckets: T) =>
  z.array(z.object({ bucket: z.enum(buckets), from_files: count, from_bytes: count, to_files: count, to_bytes: count }));

export const scanComparisonHistogramsSchema = z.object({
  age_histogram: sideBySide(ageBuckets).describe('files and bytes by last modification in each scan, bucket by bucket'),
  size_histogram: sideBySide(sizeBuckets).describe('files and bytes by size in each scan, bucket by bucket'),
});
export type ScanComparisonHistograms = z.output<typeof scanComparisonHistogramsSchema>;
