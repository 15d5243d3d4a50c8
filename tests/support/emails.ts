import type { EmailMessage } from "../../backend/integrations/sources/gmail/records.js";

/**
 * A small mailbox of Sam's (acme.example) with Globex and Initech, in March 2026: two threads with replies each way,
 * sentiment that turns, a Cc and a message without a thread. The e-mail templates' tests and their charts' read it.
 */

const at = (iso: string) => new Date(`2026-03-${iso}Z`);
const SAM = "Sam <sam@acme.example>";
const ANN = "Ann Buyer <ann@globex.example>";
const CARL = '"Carl" <carl@globex.example>';

let n = 0;
function message(fields: Partial<EmailMessage> & { from: string; sent_at: Date }): EmailMessage {
  n += 1;
  return { id: `m${n}`, thread_id: "", to: [], cc: [], subject: "", snippet: "", body_text: "", labels: ["INBOX"], mailbox: "sam@acme.example", ...fields };
}

export const EMAIL_SAMPLE: EmailMessage[] = [
  message({ thread_id: "t1", from: ANN, to: [SAM], subject: "Demo", sent_at: at("02T09:00:00"), body_text: "Great news, we love the demo!" }),
  message({
    thread_id: "t1",
    from: SAM,
    to: [ANN],
    cc: ["bob@initech.example"],
    subject: "Re: Demo",
    sent_at: at("02T10:30:00"),
    body_text: "Thanks Ann, glad you liked it.\n\nOn Mon, 2 Mar 2026 at 09:00, Ann Buyer <ann@globex.example> wrote:\n> Great news, we love the demo!",
  }),
  message({ thread_id: "t1", from: ANN, to: [SAM], subject: "Re: Demo", sent_at: at("02T12:30:00"), body_text: "The price is a problem." }),
  message({ thread_id: "t1", from: ANN, to: [SAM], subject: "Re: Demo", sent_at: at("02T13:00:00"), body_text: "Honestly we are disappointed." }),
  message({ thread_id: "t1", from: SAM, to: [ANN], subject: "Re: Demo", sent_at: at("03T13:00:00"), body_text: "Sorry to hear that. We can fix it." }),
  message({ thread_id: "t2", from: SAM, to: [CARL], subject: "Invoice", sent_at: at("04T08:00:00"), body_text: "Hello Carl, quick question about the invoice." }),
  message({ thread_id: "t2", from: CARL, to: [SAM], subject: "Re: Invoice", sent_at: at("04T08:30:00"), body_text: "The invoice is wrong, this is bad." }),
  message({ thread_id: "t2", from: SAM, to: [CARL], subject: "Re: Invoice", sent_at: at("04T09:00:00"), body_text: "Apologies, corrected invoice attached." }),
  message({ from: "dave@initech.example", to: ["sam@acme.example"], subject: "Hi", sent_at: at("10T10:00:00"), snippet: "Happy to connect" }),
];

