/**
 * Statements written with named parameters. In named<Args>()`… ${'id'} …` each name becomes a
 * positional parameter ($1, $2, … in order of first use; a name used again keeps its number), and
 * `values(args)` lists the arguments in that order. The driver still gets positional parameters
 * (the same plans and prepared statements as hand-numbered ones); the code says which is which,
 * and the compiler checks every name against Args.
 */
export interface NamedStatement<Args> {
  /** The SQL with $1, $2, … */
  readonly text: string;
  /** The parameters of `text`, in order (undefined sent as NULL). */
  values(args: Args): unknown[];
}

export function named<Args>(): (strings: TemplateStringsArray, ...names: (keyof Args & string)[]) => NamedStatement<Args> {
  return (strings, ...names) => {
    const order: (keyof Args & string)[] = [];
    let text = strings[0]!;
    names.forEach((name, i) => {
      let at = order.indexOf(name);
      if (at < 0) at = order.push(name) - 1;
      text += `$${at + 1}${strings[i + 1]!}`;
    });
    return { text, values: (args) => order.map((name) => args[name] ?? null) };
  };
}
