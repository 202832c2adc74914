/*
 * se_define.h -- non-resident SE codes (ActGuy sample).
 *
 * Every #define whose value is an integer constant expression is an SE name:
 * decimal, hex, octal, u/l suffixes, parentheses, + - * | & << >> and names
 * defined earlier in this file. Other lines and directives are skipped.
 */
#ifndef SE_DEFINE_H
#define SE_DEFINE_H

#include "se_bank.h"            /* directives other than #define are skipped */

/* footsteps: floor/wall attribute 0..7 in bits 4..6 of the code */
#define SE_FLOOR_SHIFT          4
#define SE_FOOT_RIGHT           0x0008      // right foot = left foot + 8

/* left foot, one per floor attribute 0..7 */
#define SE_FOOT_L_CONC          0x0200u
#define SE_FOOT_L_GRASS         (SE_FOOT_L_CONC | (1 << SE_FLOOR_SHIFT))
#define SE_FOOT_L_WATER         (SE_FOOT_L_CONC | (2 << SE_FLOOR_SHIFT))
#define SE_FOOT_L_METAL         (SE_FOOT_L_CONC | (3 << SE_FLOOR_SHIFT))
#define SE_FOOT_L_SAND          (SE_FOOT_L_CONC | (4 << SE_FLOOR_SHIFT))
#define SE_FOOT_L_SNOW          (SE_FOOT_L_CONC | (5 << SE_FLOOR_SHIFT))
#define SE_FOOT_L_WOOD          (SE_FOOT_L_CONC | (6 << SE_FLOOR_SHIFT))
#define SE_FOOT_L_GRATE         (SE_FOOT_L_CONC | (7 << SE_FLOOR_SHIFT))

/* right foot: same floors, next slot */
#define SE_FOOT_R_CONC          (SE_FOOT_L_CONC  + SE_FOOT_RIGHT)
#define SE_FOOT_R_GRASS         (SE_FOOT_L_GRASS + SE_FOOT_RIGHT)
#define SE_FOOT_R_WATER         (SE_FOOT_L_WATER + SE_FOOT_RIGHT)
#define SE_FOOT_R_METAL         (SE_FOOT_L_METAL + SE_FOOT_RIGHT)
#define SE_FOOT_R_SAND          (SE_FOOT_L_SAND  + SE_FOOT_RIGHT)
#define SE_FOOT_R_SNOW          (SE_FOOT_L_SNOW  + SE_FOOT_RIGHT)
#define SE_FOOT_R_WOOD          (SE_FOOT_L_WOOD  + SE_FOOT_RIGHT)
#define SE_FOOT_R_GRATE         (SE_FOOT_L_GRATE + SE_FOOT_RIGHT)

/* one-shots */
#define SE_LAND_HEAVY           0x0300L
#define SE_WATER_SPLASH         01404       /* octal: 0x0304 */
#define SE_METAL_CLANK          (SE_LAND_HEAVY * 2 - 0x2fc)   /* 0x0304 too: aliases are fine */

#endif /* SE_DEFINE_H */
