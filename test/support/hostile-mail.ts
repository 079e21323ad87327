/**
 * Raw mails an adversarial run sent to the SMTP listener: each from a registered sender, each of a
 * shape that made the MIME parser throw after the mail had been accepted.
 */

const CRLF = "\r\n";

function head(from: string, subject: string, contentType: string): string[] {
  return [
    `From: ${from}`,
    "To: carriers@routemap.local",
    `Subject: ${subject}`,
    "MIME-Version: 1.0",
    `Content-Type: ${contentType}`,
  ];
}

/** 1,000 text attachments, each a copy of the text. */
export function thousandAttachments(from: string, subject: string, text: string): string {
  const lines = [...head(from, subject, 'multipart/mixed; boundary="att"'), ""];
  for (let i = 0; i < 1_000; i++)
    lines.push(
      "--att",
      `Content-Type: text/plain; name=fsu${i}.txt`,
      `Content-Disposition: attachment; filename=fsu${i}.txt`,
      "",
      text,
    );
  lines.push("--att--", "");
  return lines.join(CRLF);
}

/** 3,000 multiparts nested in one another, the text in the innermost. */
export function nestedMultiparts(from: string, subject: string, text: string, depth = 3_000): string {
  const lines = [...head(from, subject, 'multipart/mixed; boundary="n0"'), ""];
  for (let i = 1; i < depth; i++)
    lines.push(`--n${i - 1}`, `Content-Type: multipart/mixed; boundary="n${i}"`, "");
  lines.push(`--n${depth - 1}`, "Content-Type: text/plain", "", text);
  for (let i = depth - 1; i >= 0; i--) lines.push(`--n${i}--`);
  lines.push("");
  return lines.join(CRLF);
}

/** 5,000 empty parts, then the text. */
export function emptyParts(from: string, subject: string, text: string): string {
  const lines = [...head(from, subject, 'multipart/mixed; boundary="e"'), ""];
  for (let i = 0; i < 5_000; i++) lines.push("--e", "");
  lines.push("--e", "Content-Type: text/plain", "", text, "--e--", "");
  return lines.join(CRLF);
}

/** A header line of 1 MB before a plain text body. */
export function megabyteHeaderLine(from: string, subject: string, text: string): string {
  return [...head(from, subject, "text/plain"), `X-Padding: ${"A".repeat(1024 * 1024)}`, "", text, ""].join(
    CRLF,
  );
}

export const HOSTILE_MAILS = {
  "1,000 text attachments": thousandAttachments,
  "3,000 nested multiparts": nestedMultiparts,
  "5,000 empty parts": emptyParts,
  "a 1 MB header line": megabyteHeaderLine,
} as const;
