/*
 * A stand-in Bluetooth adapter for btmon, preloaded by Benchmarks/run (LD_PRELOAD).
 *
 * btmon 5.66 (BlueZ monitor/packet.c, assign_handle) records a connection only after asking the
 * kernel for the adapter's address (hci_devba: a raw HCI socket and the HCIGETDEVINFO ioctl). On
 * a machine without an adapter that fails, the connection is never recorded, and the first ATT
 * PDU that looks its handle up dereferences NULL (SIGSEGV). This library answers that one
 * question: a Bluetooth socket is /dev/null, and HCIGETDEVINFO reports an adapter that is up.
 * Everything else goes to the C library. It changes nothing btmon decodes from the capture.
 *
 * Layout of struct hci_dev_info (BlueZ lib/hci.h): dev_id (2 bytes), name[8], bdaddr (6 bytes),
 * flags (4 bytes, at offset 16; bit 0 is HCI_UP, lib/hci.h's enum of device flags).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>

#define BLUETOOTH_ADDRESS_FAMILY 31                       /* AF_BLUETOOTH */
#define GET_DEVICE_INFO _IOR('H', 211, int)               /* HCIGETDEVINFO */

int socket(int domain, int type, int protocol) {
    static int (*next)(int, int, int);
    if (domain == BLUETOOTH_ADDRESS_FAMILY) return open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (!next) next = (int (*)(int, int, int))dlsym(RTLD_NEXT, "socket");
    return next(domain, type, protocol);
}

int ioctl(int fd, unsigned long request, ...) {
    static int (*next)(int, unsigned long, ...);
    va_list arguments;
    va_start(arguments, request);
    void *argument = va_arg(arguments, void *);
    va_end(arguments);
    if (request == GET_DEVICE_INFO) {
        static const uint8_t address[6] = {0x01, 0x00, 0x00, 0xAA, 0xBB, 0xCC};
        const uint32_t up = 1;
        uint8_t *info = argument;
        memset(info + 2, 0, 8);
        memcpy(info + 2, "hci0", 4);
        memcpy(info + 10, address, sizeof address);
        memcpy(info + 16, &up, sizeof up);
        return 0;
    }
    if (!next) next = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
    return next(fd, request, argument);
}
