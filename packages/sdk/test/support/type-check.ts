import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const packageDir = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Type-checks files as a reader's project would see them: strict, ESM, a browser's globals and
 * no Node types, `@dms/sdk` resolved to this package's source. Answers one line per problem,
 * `file:line message`, the file named relative to `dir`.
 */
export function typeCheck(files: readonly string[], dir: string): string[] {
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: [],
    skipLibCheck: true,
    // A sample imports the package by name; here that is this package's source.
    paths: { '@dms/sdk': [join(packageDir, 'src/index.ts')] },
    moduleDetection: ts.ModuleDetectionKind.Force,
  });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where = diagnostic.file
      ? `${diagnostic.file.fileName.slice(dir.length + 1)}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}`
      : '';
    return `${where} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
  });
}
