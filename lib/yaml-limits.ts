// The one limit every YAML reader of hookmd (run configs, model files, Trainer configs) applies.

/**
 * The most alias expansions a YAML document may make (the yaml package's `maxAliasCount`). An alias bomb
 * (aliases of aliases, expanding exponentially) fails at this count with an error the reader turns into
 * INVALID_CONFIG; no real config comes near it.
 */
export const MAX_YAML_ALIASES = 100;
