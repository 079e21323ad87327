/** DynamoDB Local for the subscription/delivery adapter tests, with the environment the adapters read. */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import {
  createTables,
  type DynamoDbLocal,
  freePort,
  LOCAL_CREDENTIALS,
  LOCAL_REGION,
  startDynamoDbLocal,
} from "../../../bin/local/emulators.ts";

export interface LocalTables {
  emulator: DynamoDbLocal;
  tables: Record<string, string>;
  /** A raw document client, to look at the items the adapter wrote. */
  doc: DynamoDBDocumentClient;
  stop(): Promise<void>;
}

/**
 * Starts DynamoDB Local and sets the environment BEFORE any adapter module creates its SDK client.
 * Expired items are not swept: these tests pin their clock to fixed dates, so what they write is
 * already past its TTL by the real clock, and a background sweep would delete it mid-test.
 */
export async function startLocalTables(): Promise<LocalTables> {
  const emulator = await startDynamoDbLocal(await freePort());
  const tables = await createTables(emulator.endpoint, { expireItems: false });
  Object.assign(process.env, tables, {
    AWS_ENDPOINT_URL_DYNAMODB: emulator.endpoint,
    AWS_REGION: LOCAL_REGION,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
  });
  const doc = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: emulator.endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS }),
  );
  return {
    emulator,
    tables,
    doc,
    stop: async () => {
      doc.destroy();
      await emulator.stop();
    },
  };
}
