/** A failure a retry cannot fix (bad stored inputs, a provider this runner cannot call). */
export class PipelineConfigError extends Error {}
