/**
 * What the disks ActGuy runs on hold, in one place for main (electron/) and the page (renderer/): a name or path past
 * these can never be made or opened, so each side refuses it in words before the system does with `ENAMETOOLONG`.
 */

/** The longest file or folder name most file systems hold, in UTF-8 bytes (ext4, APFS; NTFS's 255 UTF-16 units at the least). */
export const FILE_NAME_MAX_BYTES = 255;

/** Linux's PATH_MAX: the bytes of the longest path it opens, its closing NUL included. */
export const PATH_MAX = 4096;
