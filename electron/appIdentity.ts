/**
 * Who the app is to the OS. Its name comes from package.json's productName
 * (Electron's app.name: menus, "Quit ActGuy", the user-data folder). On
 * Windows its AppUserModelID must be the installer's appId
 * (electron-builder.yml), so the taskbar groups the window with the Start-menu
 * shortcut the NSIS installer made and a pinned icon starts this app.
 */

/** The product name users see (package.json productName). */
export const APP_NAME = 'ActGuy';

/** electron-builder.yml's appId; electron/packaging.test.ts checks they match. */
export const APP_ID = 'org.actguy.desktop';

/** The part of Electron's `app` this module uses (setAppUserModelId exists on Windows only). */
interface IdentityApp {
  setAppUserModelId?(id: string): void;
}

/** On Windows, gives the process the installer's AppUserModelID. */
export function applyAppIdentity(app: IdentityApp, platform: NodeJS.Platform): void {
  if (platform === 'win32') app.setAppUserModelId?.(APP_ID);
}
