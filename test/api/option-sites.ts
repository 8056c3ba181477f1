// Every place in the public API (lib/index.ts) that takes an options object, found with the TypeScript
// compiler from the declarations themselves: functions, constructors, static and instance methods whose
// parameter is named `options` or typed `…Options` / `…Spec`. Members marked @internal are not public,
// and the standard ErrorOptions of the error classes belong to JavaScript, not to hookmd.
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { ROOT } from '../cli/run-cli.js';

const ts = createRequire(import.meta.url)('typescript') as typeof import('typescript');

function internal(declaration: import('typescript').Node | undefined): boolean {
  return declaration !== undefined && ts.getJSDocTags(declaration).some((tag) => tag.tagName.text === 'internal');
}

/**
 * The option-taking sites as `name(parameter)`: `bulk(options)`, `new FIRE(options)`,
 * `Trainer.fromConfig(options)` (static), `Dynamics#run(options)` (instance, named by the class that
 * declares the method).
 */
export function optionSites(): string[] {
  const index = join(ROOT, 'lib', 'index.ts');
  const program = ts.createProgram([index], {
    target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, strict: true, noEmit: true, skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const sites = new Set<string>();
  const visit = (label: string, signatures: readonly import('typescript').Signature[]): void => {
    for (const signature of signatures) {
      if (internal(signature.getDeclaration())) continue;
      for (const parameter of signature.getParameters()) {
        const declaration = parameter.valueDeclaration;
        if (declaration === undefined || !ts.isParameter(declaration)) continue;
        const type = declaration.type?.getText() ?? '';
        if (type === 'ErrorOptions') continue;
        if (parameter.getName() === 'options' || /(Options|Spec)\b/.test(type)) sites.add(`${label}(${parameter.getName()})`);
      }
    }
  };
  const module = checker.getSymbolAtLocation(program.getSourceFile(index) as import('typescript').SourceFile) as import('typescript').Symbol;
  for (const exported of checker.getExportsOfModule(module)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const name = exported.getName();
    const type = checker.getTypeOfSymbol(symbol);
    if (symbol.flags & ts.SymbolFlags.Function) visit(name, type.getCallSignatures());
    if (!(symbol.flags & ts.SymbolFlags.Class)) continue;
    visit(`new ${name}`, type.getConstructSignatures());
    for (const member of checker.getPropertiesOfType(type)) {
      if (internal(member.valueDeclaration)) continue;
      visit(`${name}.${member.getName()}`, checker.getTypeOfSymbol(member).getCallSignatures());
    }
    for (const member of checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol))) {
      const declaration = member.valueDeclaration;
      if (declaration === undefined || internal(declaration) || member.getName().startsWith('#')) continue;
      if (ts.getCombinedModifierFlags(declaration) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) continue;
      const owner = ts.isClassLike(declaration.parent) && declaration.parent.name !== undefined ? declaration.parent.name.text : name;
      visit(`${owner}#${member.getName()}`, checker.getTypeOfSymbol(member).getCallSignatures());
    }
  }
  return [...sites].sort();
}
