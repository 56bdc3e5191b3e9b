/** The fold rules a walk applies (the core's ScanFoldPlan). */
export interface NativeFoldPlan {
  now: number;
  ageBounds: readonly number[];
  sizeBounds: readonly number[];
  largestFiles: number;
}

/** How a walk ended: errno 0, or the errno of its first error and the share-relative path where it came. */
export interface NativeWalkEnd {
  errno: number;
  /** strerror's text of errno ('' when 0). */
  message: string;
  path: string;
}

/** An opaque running walk. */
export type NativeWalkHandle = { readonly __nativeWalk: unique symbol };

export interface NativeWalker {
  /**
   * Walks the directory open on `fd` (duplicated: the caller closes its own) in `threads`
   * threads (1 to maxThreads). `onMessage` gets each batch (the core's FoldedWalkBatch, with
   * `folded` when a plan is given), then `(null, end)` once, after every descriptor is closed.
   */
  start(fd: number, threads: number, plan: NativeFoldPlan | null, onMessage: (batch: unknown, end: NativeWalkEnd | null) => void): NativeWalkHandle;
  /** Stops the threads at their next directory; the end still comes. */
  abort(handle: NativeWalkHandle): void;
  readonly maxThreads: number;
}

/** The compiled walker, or undefined (with why) when it was not built here. */
export function loadNativeWalker(): { walker: NativeWalker } | { walker: undefined; reason: string };
