import type { PortierModule } from './deps.js';

export type { ImportSection, ModuleJob, PortierModule, SectionImporter } from './deps.js';

/**
 * Declares a module as one value (DESIGN.md section 10): its name, the modules it depends on, and
 * what it adds to the application (resolvers, loaders, routes, import sections, jobs). The value is
 * returned as given; the application layer's list (src/app/modules.ts) is what makes it part of
 * Portier, and ESLint reads `name` and `dependsOn` from the call (eslint.config.js).
 */
export function defineModule<const M extends PortierModule>(module: M): M {
  return module;
}
