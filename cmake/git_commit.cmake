# Writes OUT (a header defining MYRIAD_GIT_COMMIT) from `git describe` of SOURCE_DIR, touching it only when the
# text changes, so a build after a commit records the new commit and a build without one rebuilds nothing.
# "unknown" outside a git checkout; "-dirty" when the work tree has changes.
execute_process(COMMAND git -C "${SOURCE_DIR}" describe --always --dirty --abbrev=40
                OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE failed)
if(failed OR commit STREQUAL "")
  set(commit "unknown")
endif()
set(text "#pragma once\n#define MYRIAD_GIT_COMMIT \"${commit}\"\n")
set(old "")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()
