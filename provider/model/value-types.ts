/**
 * Run-time type tags of output values (`t.string`, `t.nullable(t.integer)`, `t.object(…)`): an
 * output's TypeScript type exists only at compile time, so its declaration carries a tag the
 * package schema reads (../plugin/schema). `TypeFor<T>` is the tag a value of type `T` must have,
 * so a tag that disagrees with its output's type (a missing `nullable`, a string for a number, a
 * member left out) does not compile.
 * @module
 */

/** A string, integer, number or boolean. */
export interface ScalarType<K extends "string" | "integer" | "number" | "boolean"> {
  readonly type: K;
}
/** A value of no known shape (a platform's free-form problem report). */
export interface AnyType {
  readonly type: "any";
}
/** A value that may be null: the output may be absent, so it is not `required` in the schema. */
export interface NullableType<V extends ValueType = ValueType> {
  readonly type: "nullable";
  readonly of: V;
}
/** A list. */
export interface ArrayType<V extends ValueType = ValueType> {
  readonly type: "array";
  readonly items: V;
}
/** An object with named members: the schema's type `platform:index:<name>`. */
export interface ObjectType<P extends Record<string, ValueType> = Record<string, ValueType>> {
  readonly type: "object";
  readonly name: string;
  readonly properties: P;
}

/** Any tag. */
export type ValueType =
  | ScalarType<"string" | "integer" | "number" | "boolean">
  | AnyType
  | NullableType
  | ArrayType
  | ObjectType;

/** The tag a value of type `T` must have (a number may be tagged integer or number). */
export type TypeFor<T> = unknown extends T
  ? AnyType
  : null extends T
    ? NullableType<TypeFor<Exclude<T, null>>>
    : [T] extends [string]
      ? ScalarType<"string">
      : [T] extends [number]
        ? ScalarType<"integer"> | ScalarType<"number">
        : [T] extends [boolean]
          ? ScalarType<"boolean">
          : [T] extends [readonly (infer E)[]]
            ? ArrayType<TypeFor<E>>
            : [T] extends [object]
              ? ObjectType<{ [K in keyof T]-?: TypeFor<T[K]> }>
              : never;

/** The tags, as `z` is zod's: `t.string`, `t.nullable(t.integer)`, `t.array(t.object(…))`. */
export const t = {
  string: { type: "string" } as ScalarType<"string">,
  integer: { type: "integer" } as ScalarType<"integer">,
  number: { type: "number" } as ScalarType<"number">,
  boolean: { type: "boolean" } as ScalarType<"boolean">,
  any: { type: "any" } as AnyType,
  nullable<V extends ValueType>(of: V): NullableType<V> {
    return { type: "nullable", of };
  },
  array<V extends ValueType>(items: V): ArrayType<V> {
    return { type: "array", items };
  },
  /** An object type; `name` is its schema type's (`platform:index:<name>`), unique in the package. */
  object<P extends Record<string, ValueType>>(name: string, properties: P): ObjectType<P> {
    return { type: "object", name, properties };
  },
};
