/**
 * The comparer behind test/graphql/contract-agreement.test.ts: does a GraphQL type say what its Zod
 * twin says? The Zod side is read through Zod's own converter (z.toJSONSchema, the one the OpenAPI
 * document is rendered with), the GraphQL side from the built schema, and the two are compared
 * field by field: names, nullability (or, for inputs, optionality), scalar kinds, enum values, and
 * nested objects and lists all the way down.
 */
import { z } from 'zod';
import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLInterfaceType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLInputType,
  type GraphQLSchema,
  type GraphQLType,
} from 'graphql';

type Json = Record<string, unknown>;

/** The Zod side, normalised: what a value may be. */
export interface Shape {
  kind: 'string' | 'integer' | 'number' | 'boolean' | 'enum' | 'object' | 'array' | 'any';
  nullable: boolean;
  /** enum: its values (a const is a one-value enum). */
  values?: (string | number)[];
  /** object: its fields, and whether each must be present. */
  fields?: Map<string, { shape: Shape; required: boolean }>;
  /** array: its items. */
  items?: Shape;
  /** The registered id the shape came from (`GameId`, `TimeControl`), if any. */
  name?: string;
}

/** A Zod schema as the shape of what it produces (output) or accepts (input). */
export function shapeOf(schema: z.ZodType, io: 'input' | 'output'): Shape {
  const js = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  return normalise(js, (js.$defs ?? {}) as Record<string, Json>);
}

const ANY: Shape = { kind: 'any', nullable: true };

function normalise(js: Json, defs: Record<string, Json>): Shape {
  if (typeof js.$ref === 'string') {
    const id = js.$ref.replace('#/$defs/', '');
    const target = defs[id];
    if (!target) throw new Error(`unresolved ${js.$ref}`);
    const { $ref: _r, description: _d, ...rest } = js;
    return { ...normalise({ ...target, ...rest }, defs), name: id };
  }
  const branches = (js.anyOf ?? js.oneOf) as Json[] | undefined;
  if (branches) {
    const shapes = branches.map((b) => normalise(b, defs));
    const real = shapes.filter((s) => !isNull(s));
    const nullable = real.length < shapes.length || real.some((s) => s.nullable);
    if (real.length === 0) return { ...ANY };
    return { ...real.slice(1).reduce(merge, real[0]!), nullable };
  }
  let types = js.type === undefined ? [] : Array.isArray(js.type) ? (js.type as string[]) : [js.type as string];
  const nullable = types.includes('null');
  types = types.filter((t) => t !== 'null');
  if (js.const !== undefined) return { kind: 'enum', nullable, values: [js.const as string] };
  if (Array.isArray(js.enum)) return { kind: 'enum', nullable, values: js.enum as (string | number)[] };
  if (types.length === 0 && nullable) return { kind: 'any', nullable: true, values: [] };
  if (types.length !== 1) return { ...ANY };
  const type = types[0]!;
  if (type === 'object') {
    const props = js.properties as Record<string, Json> | undefined;
    if (!props) return { kind: 'any', nullable };
    const required = new Set((js.required ?? []) as string[]);
    return {
      kind: 'object',
      nullable,
      fields: new Map(Object.entries(props).map(([k, v]) => [k, { shape: normalise(v, defs), required: required.has(k) }])),
    };
  }
  if (type === 'array') return { kind: 'array', nullable, items: js.items ? normalise(js.items as Json, defs) : { ...ANY } };
  if (type === 'string' || type === 'integer' || type === 'number' || type === 'boolean') return { kind: type, nullable };
  return { ...ANY };
}

const isNull = (s: Shape) => s.kind === 'any' && s.nullable && Array.isArray(s.values) && s.values.length === 0;

/** One shape for the branches of a union: every field of any branch, required only where every branch requires it. */
function merge(a: Shape, b: Shape): Shape {
  const nullable = a.nullable || b.nullable;
  if (a.kind === 'enum' && b.kind === 'enum') return { kind: 'enum', nullable, values: [...new Set([...a.values!, ...b.values!])] };
  if (a.kind === 'object' && b.kind === 'object') {
    const fields = new Map<string, { shape: Shape; required: boolean }>();
    for (const k of new Set([...a.fields!.keys(), ...b.fields!.keys()])) {
      const x = a.fields!.get(k);
      const y = b.fields!.get(k);
      fields.set(k, { shape: x && y ? merge(x.shape, y.shape) : (x ?? y)!.shape, required: !!x?.required && !!y?.required });
    }
    return { kind: 'object', nullable, fields };
  }
  if (a.kind === 'array' && b.kind === 'array') return { kind: 'array', nullable, items: merge(a.items!, b.items!) };
  if (a.kind === b.kind) return { kind: a.kind, nullable };
  // An enum of strings and a string (a literal beside a free string): a string.
  const kinds = new Set([a.kind, b.kind]);
  if (kinds.has('string') && kinds.has('enum') && [...(a.values ?? []), ...(b.values ?? [])].every((v) => typeof v === 'string'))
    return { kind: 'string', nullable };
  if (kinds.has('integer') && kinds.has('number')) return { kind: 'number', nullable };
  return { kind: 'any', nullable };
}

/** What a pair may differ in, each with why. Keys are `GraphQLType.field`. */
export interface Allowances {
  /** A field only one side has (a GraphQL-only field resolved otherwise, a REST field GraphQL shapes elsewhere). */
  only?: Record<string, string>;
  /** A GraphQL field named otherwise in Zod: `Type.gqlField` → the Zod field. */
  renamed?: Record<string, string>;
  /** Both sides have the field but type it differently on purpose: compared for presence only. */
  shaped?: Record<string, string>;
  /** Zod enums GraphQL carries as a String without naming every value (the list grows with the registry). */
  openEnums?: readonly string[];
}

export interface Comparison {
  problems: string[];
  /** The allowance keys the comparison needed (so a stale one can be found). */
  used: Set<string>;
}

/**
 * Compares a GraphQL type (or a field's arguments: `Query.matches`) with a Zod shape. Output types: a field is nullable in GraphQL exactly
 * when Zod lets it be null or absent. Input types: a field is nullable in GraphQL exactly when Zod
 * lets it be absent. A Zod enum must be a GraphQL enum with the same values, or (an output) a
 * String whose description names every value, or (an input) a String that Zod checks.
 */
export function compareType(
  schema: GraphQLSchema,
  typeName: string,
  shape: Shape,
  io: 'input' | 'output',
  allow: Allowances = {},
  out: Comparison = { problems: [], used: new Set() },
): Comparison {
  const type = typeName.includes('.') ? argumentsOf(schema, typeName) : schema.getType(typeName);
  if (!type) {
    out.problems.push(`${typeName}: no such GraphQL type`);
    return out;
  }
  compareObject(type, shape, io, allow, out, new Set());
  return out;
}

/**
 * A field's arguments (`Query.matches`) as an input type named `Query_matches`, to be compared with
 * the Zod schema that checks them (allowance keys: `Query_matches.rated`).
 */
function argumentsOf(schema: GraphQLSchema, path: string): GraphQLInputObjectType | undefined {
  const [typeName, fieldName] = path.split('.') as [string, string];
  const parent = schema.getType(typeName);
  if (!(parent instanceof GraphQLObjectType)) return undefined;
  const field = parent.getFields()[fieldName];
  if (!field) return undefined;
  return new GraphQLInputObjectType({
    name: `${typeName}_${fieldName}`,
    fields: Object.fromEntries(field.args.map((a) => [a.name, { type: a.type as GraphQLInputType, description: a.description }])),
  });
}

type Field = GraphQLField<unknown, unknown> | GraphQLInputField;

function compareObject(
  type: GraphQLType,
  shape: Shape,
  io: 'input' | 'output',
  allow: Allowances,
  out: Comparison,
  seen: Set<string>,
): void {
  if (!(type instanceof GraphQLObjectType || type instanceof GraphQLInterfaceType || type instanceof GraphQLInputObjectType)) {
    out.problems.push(`${String(type)}: Zod has an object, GraphQL ${String(type)} is not an object type`);
    return;
  }
  if (shape.kind !== 'object') {
    out.problems.push(`${type.name}: GraphQL has an object type, Zod a ${shape.kind}`);
    return;
  }
  const key = `${type.name}|${JSON.stringify(shape, (_k, v: unknown) => (v instanceof Map ? [...v] : v))}`;
  if (seen.has(key)) return;
  seen.add(key);
  const gqlFields = type.getFields() as Record<string, Field>;
  const renamed = allow.renamed ?? {};
  const zodNameOf = (f: string) => renamed[`${type.name}.${f}`] ?? f;
  const covered = new Set<string>();
  for (const [name, field] of Object.entries(gqlFields)) {
    const at = `${type.name}.${name}`;
    if (renamed[at]) out.used.add(at);
    const zodName = zodNameOf(name);
    const z = shape.fields!.get(zodName);
    if (!z) {
      if (allow.only?.[at]) out.used.add(at);
      else
        out.problems.push(
          `${at}: a GraphQL field without a Zod field (${shape.name ?? 'the Zod object'} has ${[...shape.fields!.keys()].join(', ')})`,
        );
      continue;
    }
    covered.add(zodName);
    if (allow.shaped?.[at]) {
      out.used.add(at);
      continue;
    }
    const absent = !z.required || z.shape.nullable;
    compareValue(at, field, field.type, z.shape, absent, io, allow, out, seen);
  }
  for (const zodName of shape.fields!.keys()) {
    if (covered.has(zodName)) continue;
    const at = `${type.name}.${zodName}`;
    if (allow.only?.[at]) out.used.add(at);
    else out.problems.push(`${at}: a Zod field (${shape.name ?? 'object'}) without a GraphQL field`);
  }
}

function compareValue(
  at: string,
  field: Field,
  type: GraphQLType,
  shape: Shape,
  mayBeAbsent: boolean,
  io: 'input' | 'output',
  allow: Allowances,
  out: Comparison,
  seen: Set<string>,
): void {
  const nonNull = type instanceof GraphQLNonNull;
  if (nonNull === mayBeAbsent) {
    out.problems.push(
      nonNull
        ? `${at}: non-null in GraphQL, but Zod lets it be ${io === 'input' ? 'absent' : 'null or absent'}`
        : `${at}: nullable in GraphQL, but Zod ${io === 'input' ? 'requires it' : 'never gives null'}`,
    );
  }
  const inner = nonNull ? (type as GraphQLNonNull<GraphQLType>).ofType : type;
  if (inner instanceof GraphQLScalarType && inner.name === 'JSON') return; // any value: the description names its schema
  if (inner instanceof GraphQLList) {
    if (shape.kind !== 'array') {
      out.problems.push(`${at}: a list in GraphQL, a ${shape.kind} in Zod`);
      return;
    }
    compareValue(`${at}[]`, field, inner.ofType as GraphQLType, shape.items!, shape.items!.nullable, io, allow, out, seen);
    return;
  }
  if (inner instanceof GraphQLObjectType || inner instanceof GraphQLInterfaceType || inner instanceof GraphQLInputObjectType) {
    compareObject(inner, shape, io, allow, out, seen);
    return;
  }
  if (inner instanceof GraphQLEnumType) {
    const gql = inner.getValues().map((v) => v.value as string);
    if (shape.kind !== 'enum') {
      out.problems.push(`${at}: GraphQL enum ${inner.name}, Zod ${shape.kind}`);
      return;
    }
    const missing = shape.values!.filter((v) => !gql.includes(v as string));
    const extra = gql.filter((v) => !shape.values!.includes(v));
    if (missing.length || extra.length)
      out.problems.push(`${at}: enum ${inner.name} has ${gql.join(', ')}; Zod ${shape.values!.join(', ')}`);
    return;
  }
  const scalar = (inner as GraphQLScalarType).name;
  const expect: Record<string, string[]> = { string: ['String', 'ID'], integer: ['Int'], number: ['Float'], boolean: ['Boolean'] };
  if (shape.kind === 'enum') {
    const numeric = shape.values!.every((v) => typeof v === 'number');
    if (numeric) {
      if (!(scalar === 'Int' && shape.values!.every((v) => Number.isInteger(v))) && scalar !== 'Float')
        out.problems.push(`${at}: Zod numbers ${shape.values!.join(', ')}, GraphQL ${scalar}`);
      return;
    }
    if (scalar !== 'String') {
      out.problems.push(`${at}: Zod enum (${shape.values!.join(', ')}), GraphQL ${scalar}`);
      return;
    }
    if (io === 'input' || (shape.name && allow.openEnums?.includes(shape.name))) return;
    const description = field.description ?? '';
    const unnamed = shape.values!.filter(
      (v) => !new RegExp(`(^|[^\\w-])${String(v).replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')}($|[^\\w-])`).test(description),
    );
    if (unnamed.length)
      out.problems.push(
        `${at}: a String for Zod's enum (${shape.values!.join(', ')}); its description does not name ${unnamed.join(', ')}`,
      );
    return;
  }
  if (shape.kind === 'any') {
    out.problems.push(`${at}: Zod takes any value, GraphQL ${scalar} (use JSON)`);
    return;
  }
  if (!expect[shape.kind]?.includes(scalar)) out.problems.push(`${at}: Zod ${shape.kind}, GraphQL ${scalar}`);
}
