/** The data generator's model and renderings, as the old datagen module exported them (tests, bench, transforms). */
export * from "./generator.js";
export { Random } from "./random.js";
export { TOPICS } from "./banks.js";
export { hashString } from "../kit/hash.js";
export { toGongCall, toText, toVtt, type Meeting, type Person, type Utterance } from "../records.js";
