/** Prints what the exam page loads before an editor after every build, so a change's cost is seen where it is made. */
import path from 'node:path';
import type { Plugin, ResolvedConfig } from 'vite';
import { examPageWeight, kb } from './pageWeight.js';

/** Reports the exam page's JavaScript (raw and gzipped) once the build is written. */
export function weightReport(): Plugin {
  let config: ResolvedConfig | undefined;
  return {
    name: 'examhall-weight-report',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle() {
      if (!config) return;
      const weight = examPageWeight(path.resolve(config.root, config.build.outDir));
      config.logger.info(
        `exam page JavaScript before an editor: ${kb(weight.bytes)} (${kb(weight.gzipBytes)} gzipped) in ${weight.files.length} files`,
      );
    },
  };
}
