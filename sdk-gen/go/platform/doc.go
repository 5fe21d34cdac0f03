// Volumes, certificates, Postgres password rotations and snapshots of the platform.
package platform
