/** The words of a network tool's command line and its input, as the shell walk resolved them. */

/** One resolved word of a network tool's command line. */
export interface ToolWord {
  text: string;
  /** Part of the word comes from an expansion whose value is not known. */
  dynamic: boolean;
  /** Files that a command substitution inside this word reads (`$(cat .env | base64)`). */
  reads?: readonly string[];
  /** Commands a substitution inside this word runs (`$(env | base64)`), in pipeline order. */
  from?: readonly { name: string; args: readonly string[] }[];
}

/** What the tool reads on standard input. */
export interface ToolInput {
  /** Literal text piped in (`echo data |`, a here-string or here-doc). */
  literal?: string;
  /** Files fed in (`< .env`, `cat .env |`). */
  files: readonly string[];
  /** Commands whose output is piped in, in pipeline order (`pg_dump prod | gzip | curl -T -`). */
  from?: readonly { name: string; args: readonly string[] }[];
}
