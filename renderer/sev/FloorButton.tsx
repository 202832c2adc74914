import { sevStore } from './sevStore';
import { FLOOR_NAMES } from './resolve';

/**
 * A floor's label ("0 concrete") in the floor variants, which shows that floor everywhere when clicked. Its name says
 * which floor it is, "Floor 0 (concrete)", and it is pressed while that floor is the one shown: a screen reader read
 * "0 concrete, button" on each of the 8, none of them saying it shows a floor or which one is shown
 * (docs/architecture.md, "Renderer review, round 9").
 */
export function FloorButton({ floor, shown, className }: { floor: number; shown: number; className: string }) {
  const name = FLOOR_NAMES[floor];
  return (
    <button
      type="button"
      className={className}
      aria-label={`Floor ${floor} (${name})`}
      aria-pressed={floor === shown}
      title={`show floor ${floor}`}
      onClick={() => sevStore.getState().setFloor(floor)}
    >{`${floor} ${name}`}</button>
  );
}
