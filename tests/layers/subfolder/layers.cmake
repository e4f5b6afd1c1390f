# The layers of the subfolder fixture (tests/CMakeLists.txt).
ensemble_core_layer(calendar)
ensemble_core_layer(tools)
ensemble_core_layer(calendar/tools)
