// Errors that stop the generator: one line per problem, "file: /json/path: message".
export class MetadataError extends Error {
  constructor(public readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'MetadataError';
  }
}

export function problem(file: string, path: string, message: string): string {
  return `${file}: ${path || '/'}: ${message}`;
}
