// The unit of each built-in log column, named in the csv header as ASE's MDLogger does (`Time[ps]`,
// `Etot[eV]`): `time[fs]`, `energy[eV]`, `pressure[eV/Å^3]`. The unit follows the batch's unit system, so a
// reader never has to guess which of LAMMPS's (ps, bar) or ASE's (eV/Å³) conventions a column uses.
import type { UnitSystem } from '../../data/units.js';

/** The unit of every built-in column that has one (step, system, systemId and status are counts, g(r) a ratio). */
export function logColumnUnits(units: UnitSystem): Readonly<Record<string, string>> {
  const { energy, length, time, temperature } = units;
  return {
    time,
    temperature,
    energy,
    kineticEnergy: energy,
    totalEnergy: energy,
    fmax: `${energy}/${length}`,
    volume: `${length}^3`,
    pressure: `${energy}/${length}^3`,
    // The analysis series beside a log (MsdHook, VacfHook, RdfHook in run configs).
    msd: `${length}^2`,
    vacf: `${length}^2/${time}^2`,
    r: length,
  };
}

/** A csv header cell: the column's name, then its unit in brackets when it has one. */
export function headerCell(name: string, unit: string | undefined): string {
  return unit === undefined ? name : `${name}[${unit}]`;
}

/** The column name of a csv header cell, without its unit: `energy[eV]` is `energy`. */
export function columnName(cell: string): string {
  return cell.replace(/\[[^\]]*\]$/, '');
}
