// FixCom: each system's centre of mass held where it starts, as an engine constraint (ASE's FixCom), run
// natively (native/cpp/dynamics/hooks/FixCom.h).
import type { Batch } from '../../data/index.js';
import { DynamicsStage } from '../stage.js';
import type { NativeHookSpec } from '../hooks/native-hook.js';

const FIX_COM_STAGES: readonly DynamicsStage[] = [DynamicsStage.AFTER_PRE_UPDATE, DynamicsStage.AFTER_COMPUTE, DynamicsStage.AFTER_POST_UPDATE];

/**
 * A fixed centre of mass for every system, ASE's `FixCom`: the forces lose λ·mᵢ with λ = Σ mⱼFⱼ / Σ mⱼ²
 * (ASE's adjust_forces), and after each update the centre-of-mass velocity is removed and the positions are
 * shifted back to the first centre of mass. It removes 3 degrees of freedom, the 3N − 3 that hookmd's
 * temperature counts for a system without fixed atoms. Beside fixed atoms (FixAtoms, FreezeAtomsHook, a
 * stream's `info.fixed`) it holds the centre of the mobile atoms, the sums running over them only, and the
 * temperature counts 3·N_mobile − 3, as ASE's get_temperature with FixAtoms and FixCom.
 *
 * @example
 * new VelocityVerlet({ model, dt: 1, constraints: [new FixCom()] });
 */
export class FixCom {
  readonly frequency = 1;
  readonly name = 'FixCom';

  /** @internal The native form, for engines. */
  toNativeHook(_batch: Batch): NativeHookSpec {
    return { type: 'FixCom', stages: FIX_COM_STAGES, frequency: 1, phase: 0 };
  }
}
