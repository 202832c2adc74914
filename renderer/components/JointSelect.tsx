import { useDocument, useSession } from '../state/hooks';
import { sessionStore } from '../state/sessionStore';

/** Joint picker: -1 is the root translation channel. */
export function JointSelect() {
  const joints = useDocument((d) => d.motion?.joints);
  const selected = useSession((s) => s.selectedJoint);
  return (
    <select
      className="joint-select"
      aria-label="Selected joint"
      data-testid="joint-select"
      value={selected}
      disabled={!joints}
      onChange={(e) => {
        sessionStore.getState().select(Number(e.target.value));
        // Hand the keyboard back so K / L / T act on the joint just chosen.
        e.currentTarget.blur();
      }}
    >
      <option value={-1}>Root translation</option>
      {joints?.map((j, i) => (
        <option key={i} value={i}>
          {i} {j.name}
        </option>
      ))}
    </select>
  );
}
