/**
 * The shell blocks of README.md's self-hosting sections, for the doc test that runs them
 * (readme-commands.test.ts), so the README cannot drift from what dms does.
 */
export interface ReadmeBlock {
  /** `## Heading` or `## Heading / ### Sub`. */
  section: string;
  /** 1-based line of the opening fence. */
  line: number;
  code: string;
  /** Why the block cannot run in a test (`<!-- doc-test: verify-only REASON -->` just above it). */
  verifyOnly?: string;
  /** The block runs with dms stopped (`<!-- doc-test: dms stopped -->`: a restore, say); it is started again after. */
  dmsStopped?: boolean;
}

/** A ```sh (or bash, shell) fence, indented as in a list item. */
const fence = /^(\s*)```(sh|bash|shell)\s*$/;
const marker = /^\s*<!--\s*doc-test:\s*(?:verify-only\s+(.+?)|(dms stopped))\s*-->\s*$/;

/**
 * Every shell block under a `##` heading in `sections` (its `###` sub-sections included), and the
 * places where a command block is written indented (4 spaces) instead of fenced, which no test
 * would run.
 */
export function readmeBlocks(markdown: string, sections: readonly string[]): { blocks: ReadmeBlock[]; indented: { section: string; line: number }[] } {
  const lines = markdown.split('\n');
  const blocks: ReadmeBlock[] = [];
  const indented: { section: string; line: number }[] = [];
  let h2 = '';
  let h3 = '';
  let inOtherFence = false;
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    if (/^\s*```/.test(text) && !fence.test(text)) {
      inOtherFence = !inOtherFence;
      continue;
    }
    if (inOtherFence) continue;
    const heading = /^(#{2,3}) (.+?)\s*$/.exec(text);
    if (heading) {
      if (heading[1] === '##') [h2, h3] = [heading[2]!, ''];
      else h3 = heading[2]!;
      continue;
    }
    if (!sections.includes(h2)) continue;
    const section = h3 ? `## ${h2} / ### ${h3}` : `## ${h2}`;
    const open = fence.exec(text);
    if (open) {
      const indent = open[1]!.length;
      const body: string[] = [];
      let end = i + 1;
      while (end < lines.length && !/^\s*```\s*$/.test(lines[end]!)) body.push(lines[end++]!.slice(indent));
      let above = i - 1;
      while (above >= 0 && lines[above]!.trim() === '') above--;
      const directive = above >= 0 ? marker.exec(lines[above]!) : null;
      blocks.push({
        section,
        line: i + 1,
        code: body.join('\n'),
        ...(directive?.[1] ? { verifyOnly: directive[1] } : {}),
        ...(directive?.[2] ? { dmsStopped: true } : {}),
      });
      i = end;
    } else if (/^ {4}\S/.test(text) && lines[i - 1]?.trim() === '' && !/^(\s|[-*]|\d+\.)/.test(lines[i - 2] ?? '')) {
      // An indented code block (not a list item's continuation): no test would run it.
      indented.push({ section, line: i + 1 });
    }
  }
  return { blocks, indented };
}
