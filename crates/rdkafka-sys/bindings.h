#include "../../vendor/librdkafka/src/rdkafka.h"
#include "../../vendor/librdkafka/src/rdkafka_mock.h"
