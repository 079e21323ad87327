/**
 * The DynamoDB tables of functions/contracts/resources.ts, with point-in-time recovery, TTL and streams
 * as defined there. Retained data (the default, `retainData`) keeps every table on stack deletion and
 * protects it from deletion; throwaway stacks (`-c retainData=false`) delete them with the stack.
 */
import { RemovalPolicy } from "aws-cdk-lib";
import {
  AttributeType,
  BillingMode,
  type ITable,
  StreamViewType,
  Table,
  TableEncryption,
} from "aws-cdk-lib/aws-dynamodb";
import type { IKey } from "aws-cdk-lib/aws-kms";
import { Construct } from "constructs";
import { TABLES } from "../../functions/contracts/resources.ts";

export type TableName = keyof typeof TABLES;

export class DataTables extends Construct {
  readonly tables: Record<TableName, ITable>;

  constructor(scope: Construct, id: string, props: { key: IKey; retainData: boolean }) {
    super(scope, id);
    const tables = {} as Record<TableName, ITable>;
    for (const [name, definition] of Object.entries(TABLES) as Array<
      [TableName, (typeof TABLES)[TableName]]
    >) {
      // Table (not TableV2): a customer-managed key on TableV2 needs a region-bound stack, and
      // `cdk synth` must work offline without an account or region.
      const table = new Table(this, definition.id, {
        partitionKey: { name: definition.partitionKey, type: AttributeType.STRING },
        ...("sortKey" in definition
          ? { sortKey: { name: definition.sortKey, type: AttributeType.STRING } }
          : {}),
        billingMode: BillingMode.PAY_PER_REQUEST,
        pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
        encryption: TableEncryption.CUSTOMER_MANAGED,
        encryptionKey: props.key,
        removalPolicy: props.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
        deletionProtection: props.retainData,
        ...("ttlAttribute" in definition ? { timeToLiveAttribute: definition.ttlAttribute } : {}),
        ...(definition.stream ? { stream: StreamViewType.NEW_IMAGE } : {}),
      });
      for (const index of definition.globalIndexes) {
        table.addGlobalSecondaryIndex({
          indexName: index.name,
          partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
          sortKey: { name: index.sortKey, type: AttributeType.STRING },
        });
      }
      tables[name] = table;
    }
    this.tables = tables;
  }
}
