/** The in-memory repositories keep the same contract as the DynamoDB ones (test/adapters/subscriptions). */
import { memoryDeliveryRepository } from "../../../functions/adapters/memory/delivery-repository.ts";
import { memorySubscriptionRepository } from "../../../functions/adapters/memory/subscription-repository.ts";
import {
  deliveryRepositoryContract,
  subscriptionRepositoryContract,
} from "../../adapters/subscriptions/contract.ts";

subscriptionRepositoryContract(() => memorySubscriptionRepository());
deliveryRepositoryContract(() => memoryDeliveryRepository());
