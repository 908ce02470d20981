#error "a DYNGRAPH_NO_OPENCL build included the OpenCL headers"
