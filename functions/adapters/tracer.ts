/**
 * The one X-Ray tracer (Powertools): every function's invocation is a segment
 * (`traced(handler)`, or the HTTP pipeline's first middleware), every AWS SDK client it creates is
 * captured (functions/adapters/aws-clients.ts: a subsegment per DynamoDB, SQS, SES, Scheduler, S3 or
 * Cognito call) and each outbound HTTP exchange of the sender (webhooks, customer endpoints, ONE Record
 * publishers) is a subsegment of its own.
 *
 * The stack turns it on (lib/constructs/handler-function.ts: active tracing plus the POWERTOOLS_TRACER_*
 * settings). Off everywhere else: the Tracer only traces inside a Lambda execution environment, and
 * the local runner and the tests also say POWERTOOLS_TRACE_ENABLED=false, so nothing tries to reach an
 * X-Ray daemon there.
 */
import { Tracer } from "@aws-lambda-powertools/tracer";
import { captureLambdaHandler } from "@aws-lambda-powertools/tracer/middleware";
import middy from "@middy/core";
import type { Context } from "aws-lambda";

export const tracer = new Tracer({ serviceName: "route-map-tracker" });

/** The middy middleware that opens the invocation's segment (responses not recorded: they hold secrets). */
export const tracing = () => captureLambdaHandler(tracer, { captureResponse: false });

/** A Lambda handler that is not a middy chain, traced the same way as the HTTP routes. */
export function traced<E, R>(handler: (event: E, context: Context) => Promise<R>) {
  return middy(handler).use(tracing());
}

/** An AWS SDK v3 client whose calls become subsegments (the client itself when tracing is off). */
export function captured<T>(client: T): T {
  return tracer.captureAWSv3Client(client);
}

/**
 * Runs `work` in a subsegment named `name` (annotated with `annotations`), recording its error; just
 * runs it when tracing is off. Concurrent calls (a batch delivered in parallel) each get their own.
 */
export function inSubsegment<T>(
  name: string,
  annotations: Readonly<Record<string, string>>,
  work: () => Promise<T>,
): Promise<T> {
  if (!tracer.isTracingEnabled()) return work();
  // captureAsyncFunc returns what `work` returns: a promise of T.
  return tracer.provider.captureAsyncFunc(name, async (subsegment) => {
    for (const [key, value] of Object.entries(annotations)) subsegment?.addAnnotation(key, value);
    try {
      return await work();
    } catch (error) {
      if (error instanceof Error) subsegment?.addError(error);
      throw error;
    } finally {
      subsegment?.close();
    }
  }) as Promise<T>;
}
