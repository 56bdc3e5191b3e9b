/** A refusal in the operator's words: printed as `dms: <message>`, exit code 1. */
export class CliError extends Error {
  override readonly name = 'CliError';
}
