/** The in-memory repositories keep the same contract as the DynamoDB ones (test/adapters/subscriptions). */

import {
  deliveryRepositoryContract,
  subscriptionRepositoryContract,
} from "../../adapters/subscriptions/contract.ts";
import { memoryDeliveryRepository } from "../../support/memory/delivery-repository.ts";
import { memorySubscriptionRepository } from "../../support/memory/subscription-repository.ts";

subscriptionRepositoryContract(() => memorySubscriptionRepository());
deliveryRepositoryContract(() => memoryDeliveryRepository());
