import { Hono } from "hono";
import type { SignedInEnv } from "../types";
import { gatewayPoolRoutes } from "./gateway-pools";
import { networkAccessRoutes } from "./network-access";
import { networkDeviceRoutes } from "./network-devices";
import { networkDnsRoutes } from "./network-dns";
import { networkMapRoutes } from "./network-map";
import { nodePageRoutes } from "./network-node";
import { networkNodeRoutes } from "./network-nodes";
import { networkOverviewRoutes } from "./network-overview";
import { networkPolicyRoutes } from "./network-policies";
import { networkStatusRoutes } from "./network-status";

/** The pages of one network (/networks/:id and its sections), mounted behind sign-in in index.tsx. */
export const networkPageRoutes = new Hono<SignedInEnv>();
networkPageRoutes.route("/", networkOverviewRoutes);
networkPageRoutes.route("/", networkNodeRoutes);
networkPageRoutes.route("/", nodePageRoutes);
networkPageRoutes.route("/", networkPolicyRoutes);
networkPageRoutes.route("/", gatewayPoolRoutes);
networkPageRoutes.route("/", networkMapRoutes);
networkPageRoutes.route("/", networkDnsRoutes);
networkPageRoutes.route("/", networkStatusRoutes);
networkPageRoutes.route("/", networkAccessRoutes);
networkPageRoutes.route("/", networkDeviceRoutes);
