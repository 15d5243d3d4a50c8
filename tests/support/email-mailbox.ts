import type pg from "pg";
import { gmailManifest } from "../../contract/integrations/gmail.js";
import { LocalWriter, resolveLocalRoot } from "../../backend/integrations/destinations/local/index.js";
import { emitMessage, type EmailMessage } from "../../backend/integrations/sources/gmail/records.js";
import { batchMaker } from "../../backend/sync/batch.js";
import { writeRecords } from "../../backend/sync/write.js";
import { dataDir } from "../e2e/db";

/**
 * Five weeks of a sales and support team's mail (Sam's and Lee's mailboxes at acme.example) with six customers at five
 * companies, for the e-mail templates' charts in the browser (tests/e2e/email-transform-charts.spec.ts): threads with
 * replies both ways, each customer answering at a pace of their own (from 40 minutes to two days), and a mood that sinks
 * in the second and third weeks (a price, an outage, a contract) and recovers after. Dates count back from `anchor`
 * (a UTC midnight), so that the mail lies in the last 35 days whenever the test runs.
 */

interface Person {
  name: string;
  address: string;
}

const person = (name: string, address: string): Person => ({ name, address });
const SAM = person("Sam Ortiz", "sam@acme.example");
const LEE = person("Lee Park", "lee@acme.example");
const ANN = person("Ann Buyer", "ann@globex.example");
const CARL = person("Carl Meyer", "carl@globex.example");
const BOB = person("Bob Chen", "bob@initech.example");
const DANA = person("Dana Wu", "dana@umbrella.example");
const ERIN = person("Erin Ruiz", "erin@hooli.example");
const FRANK = person("Frank Hale", "frank@stark.example");

/** One message of a thread: who writes it, how many minutes after the message before it, and its words. */
type Step = [by: "us" | "them", after: number, text: string];

interface Thread {
  /** Our side: the mailbox the thread is read from. */
  us: Person;
  them: Person;
  subject: string;
  daysBack: number;
  /** Minutes after midnight (UTC) of its first message. */
  start: number;
  steps: Step[];
}

const THREADS: Thread[] = [
  {
    us: SAM, them: ANN, subject: "Demo follow-up", daysBack: 33, start: 9 * 60,
    steps: [
      ["us", 0, "Thanks for your time today, great to meet you. Excited to show you more."],
      ["them", 40, "We love the demo, great work!"],
      ["us", 25, "Wonderful, I will send the proposal today."],
      ["them", 50, "Perfect, thank you."],
    ],
  },
  {
    us: LEE, them: BOB, subject: "Onboarding", daysBack: 31, start: 14 * 60,
    steps: [
      ["us", 0, "Welcome aboard! Happy to help with the onboarding."],
      ["them", 1500, "Thanks, the team is happy so far."],
      ["us", 90, "Great, glad to hear it."],
    ],
  },
  {
    us: SAM, them: CARL, subject: "Pricing", daysBack: 26, start: 10 * 60,
    steps: [
      ["them", 0, "The price is a problem for us."],
      ["us", 120, "I understand, let me check the options."],
      ["them", 200, "Honestly we are disappointed with the discount."],
      ["us", 60, "Sorry, I will escalate it."],
    ],
  },
  {
    us: LEE, them: DANA, subject: "Login errors", daysBack: 24, start: 8 * 60 + 30,
    steps: [
      ["them", 0, "Our users cannot log in, this is bad."],
      ["us", 30, "Sorry about that, we are investigating."],
      ["them", 360, "Still broken, very frustrating and annoying."],
      ["us", 45, "Fixed now, apologies for the trouble."],
      ["them", 300, "Confirmed, thanks."],
    ],
  },
  {
    us: SAM, them: FRANK, subject: "Contract terms", daysBack: 22, start: 11 * 60,
    steps: [
      ["us", 0, "Attached are the contract terms for your review."],
      ["them", 2880, "Legal has concerns, the terms are unacceptable and the liability clause is a serious problem."],
      ["us", 240, "Understood, we can revise them."],
    ],
  },
  {
    us: LEE, them: ERIN, subject: "Invoice", daysBack: 19, start: 13 * 60,
    steps: [
      ["them", 0, "The invoice is wrong again, this is annoying."],
      ["us", 20, "Apologies, the corrected invoice is attached."],
      ["them", 90, "Thanks, looks good."],
    ],
  },
  {
    us: SAM, them: ANN, subject: "Renewal", daysBack: 15, start: 9 * 60 + 30,
    steps: [
      ["us", 0, "Good news: the renewal discount is approved."],
      ["them", 35, "Excellent, thank you!"],
    ],
  },
  {
    us: LEE, them: BOB, subject: "Feature request", daysBack: 12, start: 15 * 60,
    steps: [
      ["them", 0, "Could you add an export to the dashboard? It would help."],
      ["us", 180, "Good idea, it is on the roadmap."],
      ["them", 1400, "Great, we appreciate it."],
    ],
  },
  {
    us: SAM, them: FRANK, subject: "Revised contract", daysBack: 8, start: 10 * 60,
    steps: [
      ["us", 0, "Here is the revised contract."],
      ["them", 2900, "Much better, we agree."],
      ["us", 30, "Fantastic, thanks Frank."],
    ],
  },
  {
    us: LEE, them: ERIN, subject: "Training", daysBack: 5, start: 9 * 60,
    steps: [
      ["us", 0, "Happy to schedule the training session."],
      ["them", 100, "Perfect, Thursday works. Thanks!"],
    ],
  },
  {
    us: SAM, them: CARL, subject: "Order", daysBack: 3, start: 16 * 60,
    steps: [
      ["them", 0, "We are ready to order, great support."],
      ["us", 45, "Thank you Carl, excellent news."],
      ["them", 180, "Looking forward to it."],
    ],
  },
  {
    us: LEE, them: DANA, subject: "Follow-up", daysBack: 2, start: 10 * 60,
    steps: [
      ["us", 0, "Checking in: is everything working well now?"],
      ["them", 420, "Yes, all good, thanks for the help."],
    ],
  },
];

/** What each customer's median reply time to our side is in THREADS, in minutes (their replies' times, the middle one). */
export const TEAM_MAIL_THEIR_MEDIAN_MINUTES: Record<string, number> = {
  "ann@globex.example": 40,
  "bob@initech.example": 1450,
  "carl@globex.example": 190,
  "dana@umbrella.example": 360,
  "erin@hooli.example": 95,
  "frank@stark.example": 2890,
};

const header = (p: Person) => `${p.name} <${p.address}>`;

/** The team's mail as the Gmail reader yields it, dated back from `anchor`. */
export function teamMail(anchor: Date): EmailMessage[] {
  const out: EmailMessage[] = [];
  THREADS.forEach((thread, t) => {
    let at = anchor.getTime() - thread.daysBack * 86_400_000 + thread.start * 60_000;
    thread.steps.forEach(([by, after, text], s) => {
      at += after * 60_000;
      const [from, to] = by === "us" ? [thread.us, thread.them] : [thread.them, thread.us];
      out.push({
        id: `team-${t + 1}-${s + 1}`,
        thread_id: `team-thread-${t + 1}`,
        from: header(from),
        to: [header(to)],
        cc: [],
        subject: s === 0 ? thread.subject : `Re: ${thread.subject}`,
        sent_at: new Date(at),
        snippet: text.slice(0, 60),
        body_text: text,
        labels: by === "us" ? ["SENT"] : ["INBOX"],
        mailbox: thread.us.address,
      });
    });
  });
  return out;
}

/**
 * Writes `messages` into a local destination's warehouse and folder as a Gmail sync of `sourceId` writes them (the
 * Gmail plug-in's rows and files of email_messages, through the sync's own writer): for mail the fake Google does not
 * hold. Waits its turn while the product has the warehouse open, and lets go of it when done.
 */
export async function writeSyncedMail(client: pg.Client, target: { ownerId: string; destinationId: string; sourceId: string }, messages: EmailMessage[]): Promise<void> {
  const root = resolveLocalRoot(await dataDir(client), `destinations/${target.ownerId}/${target.destinationId}`);
  const writer = new LocalWriter(root);
  try {
    await writeRecords([{ name: "local", writer }], messages, batchMaker({ manifest: gmailManifest, emit: emitMessage }, { platform: "gmail", sourceId: target.sourceId }));
  } finally {
    await writer.close();
  }
}
