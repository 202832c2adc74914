import { useDocument, useSession } from '../state/hooks';
import { sessionStore } from '../state/sessionStore';
import { JointTreePicker } from './JointTreePicker';

const ROOT_TRANSLATION = [{ value: -1, label: 'Root translation' }];

/** The selected joint, picked from the skeleton tree (JointTreePicker): -1 is the root translation channel. */
export function JointSelect(props: { testId?: string; label?: string }) {
  const joints = useDocument((d) => d.motion?.joints);
  const selected = useSession((s) => s.selectedJoint);
  return (
    <JointTreePicker
      joints={joints}
      value={selected}
      extras={ROOT_TRANSLATION}
      label={props.label ?? 'Selected joint'}
      testId={props.testId ?? 'joint-select'}
      className="joint-select"
      onPick={(j) => sessionStore.getState().select(j)}
    />
  );
}
