/**
 * AWS SDK clients, created once per Lambda container. Locally the runner points them at the emulators
 * with the SDK's own per-service endpoint variables (AWS_ENDPOINT_URL_DYNAMODB, AWS_ENDPOINT_URL_SQS,
 * AWS_ENDPOINT_URL_SES, AWS_ENDPOINT_URL_SCHEDULER), so these adapters run unchanged in both places.
 * Cognito has no local emulator: locally the client registry and user directory are local adapters.
 * Each is captured by the tracer where it is created (functions/adapters/tracer.ts): in AWS every call
 * is an X-Ray subsegment; elsewhere tracing is off and the client is returned as it is.
 */
import { CognitoIdentityProviderClient } from "@aws-sdk/client-cognito-identity-provider";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { SchedulerClient } from "@aws-sdk/client-scheduler";
import { SESClient } from "@aws-sdk/client-ses";
import { SQSClient } from "@aws-sdk/client-sqs";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { reportConsumedCapacity } from "./consumed-capacity.ts";
import { captured } from "./tracer.ts";

let dynamoDbClient: DynamoDBClient | undefined;
let documentClient: DynamoDBDocumentClient | undefined;
let sqsClient: SQSClient | undefined;
let sesClient: SESClient | undefined;
let schedulerClient: SchedulerClient | undefined;
let cognitoClient: CognitoIdentityProviderClient | undefined;

/** The low-level DynamoDB client (the idempotency store's); the document client wraps the same one. */
export function dynamoDb(): DynamoDBClient {
  dynamoDbClient ??= captured(new DynamoDBClient({}));
  return dynamoDbClient;
}

export function dynamo(): DynamoDBDocumentClient {
  if (!documentClient) {
    documentClient = DynamoDBDocumentClient.from(dynamoDb(), {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    });
    // Every call asks for and reports its consumed capacity (EMF by Operation; docs/cost.md).
    reportConsumedCapacity(documentClient);
  }
  return documentClient;
}

export function sqs(): SQSClient {
  // Send to the configured endpoint, not the host inside queue URLs (fauxqs URLs name a host the
  // SDK cannot parse; in AWS both are the same regional endpoint).
  sqsClient ??= captured(new SQSClient({ useQueueUrlAsEndpoint: false }));
  return sqsClient;
}

export function ses(): SESClient {
  sesClient ??= captured(new SESClient({}));
  return sesClient;
}

export function scheduler(): SchedulerClient {
  schedulerClient ??= captured(new SchedulerClient({}));
  return schedulerClient;
}

export function cognito(): CognitoIdentityProviderClient {
  cognitoClient ??= captured(new CognitoIdentityProviderClient({}));
  return cognitoClient;
}
