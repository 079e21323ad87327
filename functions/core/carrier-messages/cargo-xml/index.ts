/**
 * Cargo-XML (`application/xml`, `text/xml`): the document is checked and parsed once (document.ts),
 * then read by the message whose root element it has: XFSU (StatusMessage), XFWB (Waybill), XFFM
 * (FlightManifest) and XFZB (HouseWaybill).
 */
import { MessageParseError } from "../../errors.ts";
import { type CarrierReport, truncateFound } from "../types.ts";
import { child, ElementLocator, isElement, readXmlDocument, type XmlElement } from "./document.ts";
import { readXffm } from "./xffm.ts";
import { readXfsu } from "./xfsu.ts";
import { readXfwb } from "./xfwb.ts";
import { readXfzb } from "./xfzb.ts";

interface CargoXmlMessage {
  /** The message's name, as refusals say it: "XFSU". */
  name: string;
  /** Local name of its root element. */
  root: string;
  read: (root: XmlElement, locator: ElementLocator) => CarrierReport[];
}

/** The messages read, by root element: a new Cargo-XML message is its module and one line here. */
const MESSAGES: readonly CargoXmlMessage[] = [
  { name: "XFSU", root: "StatusMessage", read: readXfsu },
  { name: "XFWB", root: "Waybill", read: readXfwb },
  { name: "XFFM", root: "FlightManifest", read: readXffm },
  { name: "XFZB", root: "HouseWaybill", read: readXfzb },
];

const NAMES = MESSAGES.map((message) => message.name).join(" or ");
const EXPECT_DOCUMENT = `an ${MESSAGES.map((message) => `${message.name} ${message.root}`).join(", ")} document`;

/** Parses one Cargo-XML document into reports; 400 naming the line for anything it cannot read. */
export function parseCargoXml(xml: string): CarrierReport[] {
  const parsed = readXmlDocument(xml, NAMES);
  const locator = new ElementLocator(xml);
  for (const message of MESSAGES) {
    const root = isElement(parsed) ? child(parsed, message.root) : undefined;
    if (root !== undefined) return message.read(root, locator);
  }
  const found =
    isElement(parsed) && typeof parsed !== "string" ? Object.keys(parsed).find((k) => k !== "?xml") : "";
  throw new MessageParseError(1, EXPECT_DOCUMENT, truncateFound(found ?? "nothing"));
}
