// The error every stage of reading a command throws: where it stopped, and why.
export class ShellSyntaxError extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}
