/**
 * The one place personal data leaves the spans (src/telemetry/redaction.ts says what is
 * redacted): {@link redactEndingSpan} rewrites a span's name, attributes and event attributes.
 * Wired into both telemetry setups of functions/shared/telemetry.ts:
 *
 * - Azure Monitor: a span processor ({@link spanRedactor}) among the distro's, which puts it
 *   ahead of its export processor; it redacts as the span ends (`onEnding`: the span is still
 *   writable, and no processor has exported it yet).
 * - OTLP: the exporter given to the Node SDK ({@link redactingExporter}), which redacts a copy of
 *   each span it exports; the SDK keeps building its batch processor from the `OTEL_BSP_*`
 *   settings, as without it (a processor of ours would replace that processor).
 *
 * Written against the shapes every OpenTelemetry JS SDK since 2.0 uses (the distro runs 2.x, the
 * Node SDK 3.x), so no SDK type is imported here.
 */
import type { AttributeValue, Attributes, Context } from '@opentelemetry/api';
import { redactText } from '../../src/telemetry/redaction';

/** What `onEnding` receives: a span not yet ended, with its events. */
export interface EndingSpan {
  readonly name: string;
  readonly attributes: Attributes;
  readonly events: readonly { attributes?: Attributes }[];
  updateName(name: string): unknown;
  setAttribute(key: string, value: AttributeValue): unknown;
}

/** The span processor contract (onStart and onEnd do nothing here). */
export interface RedactingSpanProcessor {
  onStart(span: unknown, parentContext: Context): void;
  onEnding(span: EndingSpan): void;
  onEnd(span: unknown): void;
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

function redactValue(value: AttributeValue | undefined): AttributeValue | undefined {
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) {
    return value.map((item: unknown) => (typeof item === 'string' ? redactText(item) : item)) as
      string[] | number[] | boolean[];
  }
  return value;
}

/** Redacts a span in place as it ends (see the module comment). */
function redactEndingSpan(span: EndingSpan): void {
  const name = redactText(span.name);
  if (name !== span.name) span.updateName(name);
  for (const [key, value] of Object.entries(span.attributes)) {
    const redacted = redactValue(value);
    if (redacted !== undefined && redacted !== value) span.setAttribute(key, redacted);
  }
  // Events (an exception's message and stack) are plain records the span keeps as given.
  for (const event of span.events) {
    const attributes = event.attributes as Record<string, AttributeValue | undefined> | undefined;
    if (!attributes) continue;
    for (const [key, value] of Object.entries(attributes)) attributes[key] = redactValue(value);
  }
}

/** The processor to put first among a setup's span processors. */
export function spanRedactor(): RedactingSpanProcessor {
  return {
    onStart: () => undefined,
    onEnding: redactEndingSpan,
    onEnd: () => undefined,
    forceFlush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
  };
}

/** A span as an exporter receives it (ended: read-only). */
interface ExportedSpan {
  readonly name: string;
  readonly attributes: Attributes;
  readonly events: readonly { attributes?: Attributes }[];
}

/** A copy of an ended span with its name, attributes and events redacted (the rest inherited). */
function redactedCopy<S extends ExportedSpan>(span: S): S {
  let name = span.name;
  const attributes: Attributes = { ...span.attributes };
  const events = span.events.map((event) =>
    event.attributes ? { ...event, attributes: { ...event.attributes } } : event,
  );
  redactEndingSpan({
    get name() {
      return name;
    },
    attributes,
    events,
    updateName: (next) => (name = next),
    setAttribute: (key, value) => (attributes[key] = value),
  });
  return Object.create(span, {
    name: { value: name, enumerable: true },
    attributes: { value: attributes, enumerable: true },
    events: { value: events, enumerable: true },
  }) as S;
}

/** The span exporter contract, as far as this wrapper needs it. */
interface SpanExporterLike<S> {
  export(spans: S[], resultCallback: (result: { code: number; error?: Error }) => void): void;
}

/** `exporter`, exporting redacted copies of the spans it is given (see the module comment). */
export function redactingExporter<S extends ExportedSpan, E extends SpanExporterLike<S>>(
  exporter: E,
): E {
  return new Proxy(exporter, {
    get(target, property, receiver) {
      if (property === 'export') {
        return (spans: S[], done: Parameters<E['export']>[1]) =>
          target.export(spans.map(redactedCopy), done);
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function'
        ? (value as (...a: unknown[]) => unknown).bind(target)
        : value;
    },
  });
}
