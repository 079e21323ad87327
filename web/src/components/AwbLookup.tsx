/**
 * "Find AWB" on every signed-in page: type or paste an AWB with or without its dash, press Enter or
 * Go, and the app opens its route map (which says so when there is none for you). A malformed AWB
 * or a wrong check digit is said next to the field, without leaving the page.
 */
import { useEffect, useState } from "preact/hooks";
import { lookupAwb } from "../lib/awb-lookup.ts";
import { routeMapHash } from "../lib/hash-route.ts";

export function AwbLookup() {
  const [text, setText] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  // A complaint belongs to the page it was made on: going elsewhere clears it.
  useEffect(() => {
    const clear = () => setProblem(null);
    addEventListener("hashchange", clear);
    return () => removeEventListener("hashchange", clear);
  }, []);
  return (
    <form
      class="awb-lookup"
      aria-label="Find an AWB"
      onSubmit={(event) => {
        event.preventDefault();
        const found = lookupAwb(text);
        if (!found.ok) {
          setProblem(found.message);
          return;
        }
        setProblem(null);
        setText("");
        location.hash = routeMapHash(found.awb);
      }}
    >
      <label for="awb-lookup-input">Find AWB</label>
      <input
        id="awb-lookup-input"
        value={text}
        onInput={(event) => {
          setText(event.currentTarget.value);
          setProblem(null);
        }}
        placeholder="020-12345675"
        inputMode="numeric"
        autoComplete="off"
        spellcheck={false}
        aria-invalid={problem ? "true" : undefined}
        aria-describedby={problem ? "awb-lookup-problem" : undefined}
      />
      <button type="submit" class="secondary">
        Go
      </button>
      {problem ? (
        <p id="awb-lookup-problem" class="awb-lookup-problem" role="alert">
          {problem}
        </p>
      ) : null}
    </form>
  );
}
