import { describe, expect, it } from "vitest";
import {
  dealRisk,
  DEFAULT_ACTION_CUES,
  DEFAULT_COMPETITORS,
  DEFAULT_RISK_KEYWORDS,
  RISK_WEIGHTS,
  riskLevel,
  type Line,
  type MeetingMeta,
} from "../../backend/transforms/analysis/index.js";

const meeting = (meeting_id: string, started_at: string, account: string | null): MeetingMeta => ({
  meeting_id,
  title: `Call ${meeting_id}`,
  started_at: new Date(started_at),
  account,
});

let seq = 0;
function line(meeting_id: string, affiliation: string | null, start_ms: number, end_ms: number, text: string): Line {
  seq += 1;
  return {
    meeting_id,
    utterance_id: `u${seq}`,
    speaker_id: affiliation === "External" ? "cust" : "rep",
    speaker_name: affiliation === "External" ? "Casey Customer" : "Riley Rep",
    affiliation,
    spoken_at: new Date(Date.UTC(2026, 10, 1) + start_ms),
    start_ms,
    end_ms,
    text,
  };
}

const meetings = [
  meeting("g1", "2026-11-02T10:00:00Z", "Globex"),
  meeting("g2", "2026-11-09T10:00:00Z", " Globex "),
  meeting("i1", "2026-11-01T10:00:00Z", "Initech"),
  meeting("i2", "2026-11-05T10:00:00Z", "Initech"),
  meeting("h1", "2026-11-03T10:00:00Z", "Hooli"),
  meeting("n1", "2026-11-03T10:00:00Z", null),
];
const lines = [
  // Globex: meeting averages +4 then −2 a week later (−6 a week), 1 competitor, 1 risk word, 1 open item, customer 30%.
  line("g1", "Internal", 0, 6000, "I love working with you"), // +3
  line("g1", "External", 6000, 10000, "Great progress"), // +5
  line("g2", "Internal", 0, 8000, "I will send the proposal by Friday"), // 0, action item, no later meeting
  line("g2", "External", 8000, 10000, "Fivetran is cheaper and we may cancel; this is bad"), // −4
  // Initech: positive, rising, the customer talks most; its action item is followed up 4 days later.
  line("i1", "External", 0, 5000, "We will confirm attendees"), // 0
  line("i1", "Internal", 5000, 6000, "Thank you"), // +2
  line("i2", "External", 0, 4000, "This is great"), // +3
  line("i2", "Internal", 4000, 5000, "Glad to hear"), // +3
  // Hooli: affiliations unknown, so talk share is not scored.
  line("h1", null, 0, 1000, "We may switch"),
  // Ignored: a meeting without an account and a line of an unknown meeting.
  line("n1", "External", 0, 1000, "We will cancel and switch to Fivetran"),
  line("ghost", "External", 0, 1000, "cancel cancel"),
];
const options = { competitorKeywords: ["Fivetran"], riskKeywords: ["cancel", "switch"], threshold: 60 };

describe("dealRisk", () => {
  it("scores each account from its signals, with weights, levels and reasons", () => {
    expect(dealRisk(meetings, lines, options)).toEqual([
      {
        account: "Globex",
        meetings: 2,
        last_meeting_at: new Date("2026-11-09T10:00:00Z"),
        sentiment_trend: -6,
        avg_sentiment: 1,
        competitor_mentions: 1,
        risk_mentions: 1,
        open_action_items: 1,
        external_talk_ratio: 0.3,
        // 20 (falling) + 0 (average positive) + 20×½ (competitors/meeting) + 25×½ (risk/meeting) + 10×⅕ (open) + 15×¼ (talk)
        risk_score: 48.25,
        risk_level: "medium",
        reasons: ["sentiment falling", "1 risk keyword mention", "1 competitor mention", "customer talks 30% of the time", "1 open action item"],
      },
      {
        account: "Hooli",
        meetings: 1,
        last_meeting_at: new Date("2026-11-03T10:00:00Z"),
        sentiment_trend: 0,
        avg_sentiment: 0,
        competitor_mentions: 0,
        risk_mentions: 1,
        open_action_items: 0,
        external_talk_ratio: 0,
        risk_score: 25,
        risk_level: "low",
        reasons: ["1 risk keyword mention"],
      },
      {
        account: "Initech",
        meetings: 2,
        last_meeting_at: new Date("2026-11-05T10:00:00Z"),
        sentiment_trend: 3.5, // +2 over 4 days
        avg_sentiment: 2,
        competitor_mentions: 0,
        risk_mentions: 0,
        open_action_items: 0,
        external_talk_ratio: 0.8182,
        risk_score: 0,
        risk_level: "low",
        reasons: [],
      },
    ]);
  });

  it("counts an action item as open when no follow-up meeting comes soon enough", () => {
    const initech = dealRisk(meetings, lines, { ...options, followUpDays: 2 }).find((r) => r.account === "Initech")!;
    expect(initech.open_action_items).toBe(1);
    expect(initech.risk_score).toBe(2);
    expect(initech.reasons).toEqual(["1 open action item"]);
  });

  it("uses the threshold for the levels", () => {
    expect(dealRisk(meetings, lines, { ...options, threshold: 48 })[0]!.risk_level).toBe("high");
    expect(dealRisk(meetings, lines, { ...options, threshold: 100 })[0]!.risk_level).toBe("low");
    expect(riskLevel(60, 60)).toBe("high");
    expect(riskLevel(30, 60)).toBe("medium");
    expect(riskLevel(29.9999, 60)).toBe("low");
    expect(riskLevel(0, 0)).toBe("high");
  });

  it("returns nothing without meetings, and an account with no lines scores 0", () => {
    expect(dealRisk([], lines, options)).toEqual([]);
    const [quiet] = dealRisk([meeting("q1", "2026-11-01T00:00:00Z", "Quiet")], [], options);
    expect(quiet).toMatchObject({ account: "Quiet", meetings: 1, risk_score: 0, risk_level: "low", reasons: [], external_talk_ratio: 0 });
  });

  it("exports defaults with weights summing to 100", () => {
    expect(Object.values(RISK_WEIGHTS).reduce((a, b) => a + b, 0)).toBe(100);
    expect(DEFAULT_RISK_KEYWORDS).toEqual(expect.arrayContaining(["cancel", "churn", "budget cut", "too expensive", "switch", "renewal at risk"]));
    expect(DEFAULT_COMPETITORS).toEqual([]);
    expect(DEFAULT_ACTION_CUES).toEqual(expect.arrayContaining(["action item", "next step", "i will"]));
  });
});
