import type { Random } from "./random.js";

/* The generator's banks: names, accounts and the lines people say (data). */

export const FIRST = ["Alice", "Bruno", "Chloe", "Dev", "Elena", "Farah", "George", "Hana", "Ivan", "Julia", "Kenji", "Lena", "Marco", "Nadia", "Omar", "Priya", "Quinn", "Rosa", "Sam", "Tara", "Umar", "Vera", "Wes", "Ximena", "Yusuf", "Zoe"];
export const LAST = ["Anders", "Baker", "Chen", "Diaz", "Evans", "Fischer", "Garcia", "Haddad", "Ito", "Jensen", "Khan", "Lopez", "Moreau", "Nakamura", "Okafor", "Patel", "Rossi", "Schmidt", "Tanaka", "Varga", "Walsh", "Young"];
export const INTERNAL_TITLES = ["Account Executive", "Customer Success Manager", "Solutions Engineer", "Sales Director", "Support Lead"];
export const EXTERNAL_TITLES = ["VP Operations", "Head of IT", "Procurement Manager", "Engineering Manager", "Finance Director", "Product Owner"];
export const ACCOUNTS = ["Northwind Traders", "Globex", "Initech", "Umbrella Health", "Stark Logistics", "Wayne Retail", "Acme Foods", "Hooli Media", "Vandelay Imports", "Soylent Labs", "Cyberdyne Systems", "Tyrell Energy"];
export const COMPETITORS = ["Fivetran", "Airbyte", "Stitch", "Segment", "Hevo"];
export const FEATURES = ["SSO with Okta", "a Salesforce export", "custom retention rules", "audit logs", "a Slack alert when a sync fails", "role-based access", "an EU data region", "column-level masking"];
export const PLANS = ["Starter", "Growth", "Enterprise"];

export type Line = (s: { r: Random; company: string; account: string; competitor: string; feature: string; plan: string; seats: number; price: number; date: string }) => string;
export interface Topic {
  name: string;
  /** Lines of the seller (internal) and of the customer (external), alternating. */
  internal: Line[];
  external: Line[];
}

/** The agenda bank: business topics, each with lines a rep and a customer would say. */
export const TOPICS: readonly Topic[] = [
  {
    name: "Pricing",
    internal: [
      (s) => `For ${s.seats} seats on the ${s.plan} plan we are looking at about $${s.price.toLocaleString("en-US")} a year.`,
      (s) => `If you sign before ${s.date} I can hold this year's price for ${s.company}'s ${s.plan} plan.`,
      () => `We can also move you to annual billing, which takes fifteen percent off the list price.`,
    ],
    external: [
      (s) => `Honestly the price is higher than we budgeted; $${s.price.toLocaleString("en-US")} is a hard sell to our finance team.`,
      () => `Is there any discount for a two year commitment?`,
      () => `The pricing is fair if the usage limits really are what you described.`,
    ],
  },
  {
    name: "Onboarding",
    internal: [
      () => `Onboarding usually takes two weeks: kickoff, connecting the sources, then a review of the first syncs.`,
      (s) => `I will set up a shared channel so your team at ${s.account} gets answers within the hour.`,
      () => `Our solutions engineer will join the kickoff to walk through the destination setup.`,
    ],
    external: [
      () => `Our team is small, so a guided onboarding matters a lot to us.`,
      () => `The first week went smoothly, the documentation was clear and the setup just worked.`,
      () => `We got stuck on the warehouse permissions and lost a few days there, which was frustrating.`,
    ],
  },
  {
    name: "Renewal and churn risk",
    internal: [
      (s) => `Your renewal comes up on ${s.date}; I wanted to check how things are going before then.`,
      () => `I am sorry about the outages last month; that is not the service we promised you.`,
      () => `I hear you. Let me escalate the reliability problems and come back with a plan this week.`,
    ],
    external: [
      () => `To be candid, we are evaluating whether to renew; adoption has been poor and the team is disappointed.`,
      () => `Leadership is asking about cost cutting, so every tool is under review and this one is at risk.`,
      () => `If the sync failures continue we may have to cancel at the end of the term; the outages hurt us badly.`,
      () => `We are happy overall and plan to renew, maybe even expand to another team.`,
    ],
  },
  {
    name: "Competitor mentions",
    internal: [
      (s) => `How does this compare with what you have seen from ${s.competitor}?`,
      (s) => `Unlike ${s.competitor}, we keep transcripts and e-mails in your own warehouse, not ours.`,
    ],
    external: [
      (s) => `${s.competitor} offered us a lower price and a free pilot, so we are comparing.`,
      (s) => `We used ${s.competitor} before and their support was slow, which is why we are talking to you.`,
      (s) => `${s.competitor} already has the connector we need, to be fair.`,
    ],
  },
  {
    name: "Feature requests",
    internal: [
      (s) => `Thanks for raising ${s.feature}; I will log it with product and share the roadmap.`,
      () => `That is on the roadmap for next quarter; I can put you in the beta.`,
    ],
    external: [
      (s) => `The one thing we really need is ${s.feature}; without it security will not sign off.`,
      (s) => `Could you add ${s.feature}? Our admins keep asking for it.`,
      () => `It would help if the dashboard showed which syncs are behind.`,
    ],
  },
  {
    name: "Action items and next steps",
    internal: [
      (s) => `Next step: I will send the proposal and the security questionnaire by ${s.date}.`,
      () => `Action item on my side: book a technical deep dive with your data team.`,
      () => `Let us schedule a follow-up next week to review the pilot results.`,
    ],
    external: [
      () => `On our side, I will get the legal review started and loop in procurement.`,
      (s) => `I will share the requirements document with the ${s.account} team by Friday.`,
      () => `Sounds good, send over the calendar invite and we will confirm attendees.`,
    ],
  },
];

export const OPENERS_INTERNAL: Line[] = [(s) => `Thanks for making the time today. From ${s.company}, we have a few things on the agenda.`, () => `Hi everyone, good to see you again. Shall we get started?`];
export const OPENERS_EXTERNAL: Line[] = [(s) => `Thanks, happy to be here on behalf of ${s.account}.`, () => `Hi, yes, let us dive in, we have about thirty minutes.`];
export const CLOSERS: Line[] = [() => `Great, thanks all, talk soon.`, () => `Thank you, this was really helpful.`];
