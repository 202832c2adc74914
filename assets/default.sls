; default.sls -- resident SE name -> code table (ActGuy sample)
; One entry per line: NAME CODE  or  NAME = CODE.
; Codes are decimal or 0x hex, 0..0xFFFE. Comments start with ; # or //.

; base footsteps (played on every floor when a SEV gives no variants)
SE_FOOT_L          0x0100
SE_FOOT_R          0x0101

# clothing and gear
SE_CLOTH_SWISH   = 0x0110
SE_GEAR_RATTLE   = 0x0111   // webbing and holster
SE_BREATH_LIGHT    288      ; 0x0120
