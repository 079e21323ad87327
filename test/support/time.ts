/**
 * Budgets of the suite's waits, scaled for the machine it runs on (TEST_TIME_FACTOR): the same factor
 * the local runner's own start-up waits use (bin/local/time-factor.ts).
 */
export { scaled, timeFactor } from "../../bin/local/time-factor.ts";
