/**
 * The project's commands (File › Open Project…, Save Project, Build Archives…, Export All as MSH… / glTF…), its savable part and its share of
 * the tuner's Save: registered at start-up (renderer/app/features.ts).
 */
import { registerCommands } from '../app/commandRegistry';
import { projectTuning } from '../tuner/motionTuning';
import { registerSavablePart } from '../app/savableParts';
import { isProjectDirty, projectStore } from './projectStore';
import { openProjectDialog, saveProject, saveProjectAndSev } from './projectFiles';
import { storeTunerTolerances, tunerProjectMotion } from './projectMotions';
import { buildArchives } from './projectBuild';
import { exportAllMotions } from './projectExport';

const hasProject = () => projectStore.getState().path !== null;

export function registerProjectCommands(): void {
  registerCommands([
    { id: 'project.open', run: () => openProjectDialog() },
    { id: 'project.save', run: () => saveProjectAndSev(), enabled: hasProject },
    { id: 'project.build', run: () => buildArchives(), enabled: hasProject },
    { id: 'project.exportAllMsh', run: () => exportAllMotions('msh'), enabled: hasProject },
    { id: 'project.exportAllGltf', run: () => exportAllMotions('gltf'), enabled: hasProject },
  ]);
  registerSavablePart({
    part: 'project',
    isDirty: () => isProjectDirty(projectStore.getState()),
    name: () => 'the project',
    save: () => saveProject(),
  });
  // Save (Ctrl+S) of a project motion keeps the tuner's settings in the project (docs/formats-tuning.md).
  projectTuning.covers = (d) => tunerProjectMotion(projectStore.getState(), d) !== null;
  projectTuning.store = async () => {
    storeTunerTolerances('save');
    return saveProject();
  };
}
