# Writes INPUT's text into OUTPUT as a C++ raw string literal, so a source
# file can be both compiled and handed to NVRTC as text:
#   cmake -DINPUT=... -DOUTPUT=... -P EmbedSource.cmake
file(READ "${INPUT}" text)
file(WRITE "${OUTPUT}.tmp" "R\"HLO_EMBEDDED(${text})HLO_EMBEDDED\"\n")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
