/** An output problem, in the user's words and naming the user's path (never a temp file). */
export class OutputWriteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutputWriteError';
  }
}
