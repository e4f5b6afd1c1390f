# core/'s layers, lowest first, one ensemble_core_layer() per layer. A file
# in core/<folder>/ may include its own folder's headers and those of any
# folder in a lower layer: never one in its own layer or above. So a domain
# cannot reach up into the assistant, nor two peers into each other, and a
# new include that points back up fails the build (cmake/check_layers.cmake,
# run before ensemble_core compiles). A domain's subfolder may be a layer of
# its own: calendar sits below the tools, its tools' table
# (calendar/tools) above them.
ensemble_core_layer(platform)
ensemble_core_layer(base)
ensemble_core_layer(text store)
ensemble_core_layer(calendar sync refs playbooks net model)
ensemble_core_layer(records)
ensemble_core_layer(tools)
ensemble_core_layer(projects tasks pages desk meetings skills files web trash calendar/tools)
ensemble_core_layer(boards accounts people)
ensemble_core_layer(comments)
ensemble_core_layer(reminders)
ensemble_core_layer(connections routines spaces context)
ensemble_core_layer(assistant)
ensemble_core_layer(hub)
