#include <mpi.h>

// Open MPI's handles are macros that cast addresses of its globals; Swift cannot import
// them, so these functions hand them over.
static inline MPI_Comm uidetect_mpi_comm_world(void) { return MPI_COMM_WORLD; }
static inline MPI_Datatype uidetect_mpi_float(void) { return MPI_FLOAT; }
static inline MPI_Datatype uidetect_mpi_double(void) { return MPI_DOUBLE; }
static inline MPI_Datatype uidetect_mpi_byte(void) { return MPI_BYTE; }
static inline MPI_Errhandler uidetect_mpi_errors_return(void) { return MPI_ERRORS_RETURN; }
static inline MPI_Request uidetect_mpi_request_null(void) { return MPI_REQUEST_NULL; }
static inline MPI_Status *uidetect_mpi_status_ignore(void) { return MPI_STATUS_IGNORE; }
