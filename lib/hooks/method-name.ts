// hookmd hook kernel: the method name of a stage (docs/hooks.md, "Method-style hooks"), for the stage
// table and the method-style adapter alike.

/**
 * The method name of a stage: `on` + its name in camelCase.
 *
 * @example
 * stageMethodName('AFTER_COMPUTE'); // 'onAfterCompute'
 * stageMethodName('ON_CONVERGE');   // 'onConverge'
 */
export function stageMethodName(stageName: string): string {
  const words = stageName.split(/[^A-Za-z0-9]+/).filter((w) => w !== '');
  if (words.length > 0 && words[0].toLowerCase() === 'on') words.shift();
  return `on${words.map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()).join('')}`;
}
