/**
 * Whether a parsed JSON value passes a response schema, compiled once from the schema itself and
 * answered without building zod's copy of the value.
 *
 * Zod validates by building its output: for a loose object, a new object and, for each field, a
 * payload object and an issues array (zod/v4/core, the object's fast path). On the reading
 * thread that was 14 KB an order, 40 % of all it allocated in a backfill, and all of it garbage
 * once the record's rows were made. Our schemas have no transforms, defaults or coercions, and
 * their objects are loose (they keep unknown fields), so zod's output for a valid record equals
 * the record as parsed: the record itself can be used once it is known to be valid.
 *
 * A check is compiled only for the kinds of schema whose output is their input (loose objects,
 * arrays, nullable, optional, records of unknown values, and leaves: strings, numbers, booleans,
 * enums, with their checks); for any other kind there is no check, and zod alone decides. A leaf
 * runs zod's own parse and checks, on one payload reused. A value the check refuses is parsed by
 * zod again for its issues, so that a reject says what zod says; the check only has to accept
 * nothing zod refuses (test/schema-check.test.ts compares the two on mutated records).
 *
 * It reads zod's internals (`_zod.def`, `_zod.run`), which a minor release may change: zod is
 * pinned to the exact version this was written against (package.json), so that an upgrade is a
 * decision, made with that test, and never a side effect of `npm install`.
 */
import type { z } from "zod";
import { util } from "zod/v4/core";

/** Whether a value passes the schema it was compiled from. */
export type SchemaCheck = (value: unknown) => boolean;

/** What a check reads of a schema: zod's own definition and run (zod/v4/core). */
interface Internals {
  _zod: {
    def: {
      type: string;
      checks?: readonly unknown[];
      coerce?: boolean;
      shape?: Record<string, Internals>;
      catchall?: Internals;
      element?: Internals;
      innerType?: Internals;
      keyType?: Internals;
      valueType?: Internals;
    };
    optin?: string;
    run(payload: Payload, context: object): Payload | Promise<Payload>;
  };
}

interface Payload {
  value: unknown;
  issues: unknown[];
}

/** A schema this module cannot compile: zod alone validates it. */
class NotCompiled extends Error {}

/** zod's context for a synchronous parse. */
const SYNC = { async: false };

const compiled = new WeakMap<object, SchemaCheck | null>();

/** The check of `schema`, compiled on first use; undefined when the schema has a kind whose
 * output is not its input. */
export function schemaCheckOf(schema: z.ZodType): SchemaCheck | undefined {
  let check = compiled.get(schema);
  if (check === undefined) {
    try {
      check = compile(schema as unknown as Internals);
    } catch {
      // A kind the compiler does not know (NotCompiled), or zod's internals read otherwise than
      // they are (another zod): zod validates alone. The tests hold our schemas to a check.
      check = null;
    }
    compiled.set(schema, check);
  }
  return check ?? undefined;
}

function compile(schema: Internals): SchemaCheck {
  const { def } = schema._zod;
  switch (def.type) {
    case "object":
      return compileObject(schema);
    case "array": {
      if (def.checks?.length || !def.element) throw new NotCompiled();
      const element = compile(def.element);
      return (value) => Array.isArray(value) && value.every((item) => element(item));
    }
    case "nullable": {
      const inner = compile(innerOf(schema));
      return (value) => value === null || inner(value);
    }
    case "optional": {
      const inner = compile(innerOf(schema));
      return (value) => value === undefined || inner(value);
    }
    case "record":
      return compileRecord(schema);
    case "unknown":
    case "any":
      return () => true;
    case "string":
    case "number":
    case "boolean":
    case "enum":
      return compileLeaf(schema);
    default:
      throw new NotCompiled();
  }
}

function innerOf(schema: Internals): Internals {
  const inner = schema._zod.def.innerType;
  if (!inner || schema._zod.def.checks?.length) throw new NotCompiled();
  return inner;
}

/** A loose object: a present field is checked, an absent one passes only when it is optional
 * (as zod reads them: `key in value`). */
function compileObject(schema: Internals): SchemaCheck {
  const { def } = schema._zod;
  const catchall = def.catchall?._zod.def.type;
  // A strict or stripping object's output is not its input.
  if (def.checks?.length || !def.shape || (catchall !== "unknown" && catchall !== "any"))
    throw new NotCompiled();
  const fields = Object.entries(def.shape).map(([key, field]) => {
    const optional = field._zod.def.type === "optional";
    if (field._zod.optin !== undefined && !optional) throw new NotCompiled();
    return { key, optional, check: compile(field) };
  });
  return (value) => {
    if (!util.isObject(value)) return false;
    const record = value as Record<string, unknown>;
    for (const { key, optional, check } of fields) {
      if (!(key in record)) {
        if (optional) continue;
        return false;
      }
      if (!check(record[key])) return false;
    }
    return true;
  };
}

/** A record of plain string keys and unknown values (the spec's free-form objects): any plain
 * object passes, as zod's record does. */
function compileRecord(schema: Internals): SchemaCheck {
  const { keyType, valueType, checks } = schema._zod.def;
  const keyDef = keyType?._zod.def;
  const valueKind = valueType?._zod.def.type;
  if (checks?.length || keyDef?.type !== "string" || keyDef.checks?.length) throw new NotCompiled();
  if (valueKind !== "unknown" && valueKind !== "any") throw new NotCompiled();
  return (value) => util.isPlainObject(value);
}

/** A leaf runs zod's own parse and checks on one payload, reused: nothing is allocated unless the
 * value has issues. */
function compileLeaf(schema: Internals): SchemaCheck {
  if (schema._zod.def.coerce) throw new NotCompiled();
  const payload: Payload = { value: undefined, issues: [] };
  return (value) => {
    payload.value = value;
    // Issues are left only by a value refused: a fresh array then, as emptying one costs.
    if (payload.issues.length > 0) payload.issues = [];
    const result = schema._zod.run(payload, SYNC);
    return result === payload && payload.issues.length === 0;
  };
}
