// The package ships GopherJS output without typings; only the parts the shell analyzer uses.
declare module 'mvdan-sh' {
  export interface ShNode {
    [field: string]: unknown;
  }
  export interface ShParser {
    Parse(src: string, name: string): ShNode;
  }
  const sh: {
    syntax: {
      NewParser(...options: unknown[]): ShParser;
      NodeType(node: ShNode): string;
    };
  };
  export default sh;
}
